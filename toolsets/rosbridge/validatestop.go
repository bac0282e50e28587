package rosbridge

import (
	"maps"
	"slices"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// warnNoStop warns about a toolset whose physical actions have no declared
// stop (nor cmd_vel): a goal whose server ignores its cancel would run to
// the end of its plan.
func warnNoStop(c *schema.Check, p *plan) {
	if p.stop != nil {
		return
	}
	var actions []string
	for _, name := range slices.Sorted(maps.Keys(p.tools)) {
		if d := p.tools[name].decl; d.Action != nil && d.IsPhysical() {
			actions = append(actions, name)
		}
	}
	if len(actions) == 0 {
		return
	}
	c.WarnfAtKey(".rosbridge", "serves physical actions (%s) but declares no stop: a goal whose server ignores its cancel runs to the end of its plan; declare rosbridge.stop (a service such as /dashboard_client/stop, an action, or a bounded publish)", strings.Join(actions, ", "))
}
