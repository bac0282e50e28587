package schema_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func TestEffectsCompile(t *testing.T) {
	s := &schema.Spec{Tools: map[string]schema.ToolContract{"place": {Effects: []schema.Effect{
		{Add: "relation", Of: "args.object_name", Kind: "args.relation", To: "args.target"},
		{Remove: "relation", Of: "after.held", Kind: "on"},
		{Clear: "robot.holding"},
	}}}}
	r, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	effs := r.Effects["place"]
	if len(effs) != 3 || effs[0].Op != schema.OpAddRelation || effs[0].KindExpr == nil || effs[0].Of == nil || effs[0].To == nil ||
		effs[1].Kind != "on" || effs[1].KindExpr != nil || effs[2].Op != schema.OpClearHolding || effs[2].Path != "tools.place.effects[2]" {
		t.Fatalf("compiled effects %+v", effs)
	}
	for _, tc := range []struct {
		eff  schema.Effect
		want string
	}{
		{schema.Effect{Set: "robot.holding", Clear: "robot.holding", To: "args.x"}, "exactly one of set, clear, add or remove (found 2: set, clear)"},
		{schema.Effect{}, "exactly one of set, clear, add or remove (found 0"},
		{schema.Effect{Set: "robot.pose", To: "args.x"}, `unknown set target "robot.pose"`},
		{schema.Effect{Add: "relation", Of: "args.x", To: "args.y"}, `"add relation" needs kind`},
		{schema.Effect{Set: "state", Of: "args.x", To: "after.clearance.front"}, "gives float64"},
		{schema.Effect{Set: "robot.near", To: "tool.tags"}, "gives []string"},
		{schema.Effect{Set: "robot.near", To: "args.x", Kind: "on"}, `"set robot.near" takes no kind`},
	} {
		s := &schema.Spec{Tools: map[string]schema.ToolContract{"t": {Effects: []schema.Effect{tc.eff}}}}
		_, errs := schema.CompileRules(s)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) || !strings.HasPrefix(errs[0].Path, "tools.t.effects[0]") {
			t.Errorf("%+v: errors %v, want one at tools.t.effects[0] saying %q", tc.eff, errs, tc.want)
		}
	}
}
