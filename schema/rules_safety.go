package schema

import (
	"fmt"

	"github.com/thea-harness/thea/rules"
)

// safetyActions are the hook actions whose rule holding is the safe side.
var safetyActions = map[string]string{
	"block":   "the call is not blocked",
	"confirm": "the user is not asked",
	"clamp":   "the call is not clamped",
}

// FailOpenRules returns a warning (as a RuleError) for each read in a
// block, confirm or clamp hook's when or rule whose missing value lets the
// call through (see rules.FailOpen).
func FailOpenRules(s *Spec) []RuleError {
	var out []RuleError
	for i, h := range s.Hooks.Pre {
		outcome, ok := safetyActions[h.Action]
		if !ok {
			continue
		}
		for _, e := range []struct{ field, src string }{{"when", h.When}, {"rule", h.Rule}} {
			if e.src == "" {
				continue
			}
			path := fmt.Sprintf("hooks.pre[%d].%s", i, e.field)
			for _, r := range rules.FailOpen(e.src) {
				out = append(out, RuleError{Path: path, Line: r.Line, Col: r.Col, Message: fmt.Sprintf(
					"with %s missing this %s does not hold (%s), so %s: a missing safety reading should fail closed; "+
						"drop the default or the ?. (a rule reading a missing value then fails closed), or give a default that holds",
					r.Read, e.field, r.How, outcome)})
			}
		}
	}
	return out
}
