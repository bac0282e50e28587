package policies

import (
	"testing"

	"github.com/thea-harness/thea/schema"
)

// TestRuleTestsGreedyRulesBlock: rules that grow a string past every budget
// (an out-of-memory crash of the whole process without the rule guard) fail
// closed: the rule tests expecting a block pass.
func TestRuleTestsGreedyRulesBlock(t *testing.T) {
	s := ruleTestSpec(
		schema.RuleTest{Name: "doubling reduce blocks",
			Call:   schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "mug"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "doubling", ReasonContains: "larger than the rule limit"}},
		schema.RuleTest{Name: "nested repeat blocks",
			Call:   schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "cup"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "repeating", ReasonContains: "larger than the rule limit"}},
	)
	s.Hooks.Pre = append([]schema.PreHook{
		{Name: "doubling", When: "args.object_name == 'mug'", Rule: "len(reduce(1..999, #acc + #acc, 'a')) > 0", Action: "allow"},
		{Name: "repeating", When: "args.object_name == 'cup'", Rule: "len(repeat(repeat('a',1e5),1e5)) > 0", Action: "allow"},
	}, s.Hooks.Pre...)
	if diags := RunRuleTests(t.Context(), s); len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
}
