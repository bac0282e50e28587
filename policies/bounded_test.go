package policies

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

// TestRuleTestsGreedyRulesBlock: rules that grow a string past every budget
// (an out-of-memory crash of the whole process without the rule guard) fail
// closed: the rule tests expecting a block pass.
func TestRuleTestsGreedyRulesBlock(t *testing.T) {
	if diags := RunRuleTests(t.Context(), greedySpec(), nil); len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
}

// TestGreedyRulesInCappedProcess runs the same rule tests in a child process
// with a 2 GiB address-space cap: with the guard they pass; without it the
// first rule needs gigabytes and the child dies (fatal error: out of memory).
func TestGreedyRulesInCappedProcess(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), self, "-test.run=^$")
	cmd.Env = append(os.Environ(), greedyEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "greedy rules blocked") {
		t.Fatalf("child: %v\n%s", err, tail(out))
	}
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[:2000]
	}
	return b
}

// greedySpec has two hooks whose rules grow a string past every budget, and
// rule tests expecting each to block.
func greedySpec() *schema.Spec {
	s := ruleTestSpec(
		schema.RuleTest{Name: "doubling reduce blocks",
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "mug"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "doubling", ReasonContains: "larger than the rule limit"}},
		schema.RuleTest{Name: "nested repeat blocks",
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "cup"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "repeating", ReasonContains: "larger than the rule limit"}},
		schema.RuleTest{Name: "nested repeat of ints blocks",
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "bowl"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "repeating_ints", ReasonContains: "larger than the rule limit"}},
	)
	s.Hooks.Pre = append([]schema.PreHook{
		{Name: "doubling", When: "args.object_name == 'mug'", Rule: "len(reduce(1..999, #acc + #acc, 'a')) > 0", Action: "allow"},
		{Name: "repeating", When: "args.object_name == 'cup'", Rule: "len(repeat(repeat('a',1e5),1e5)) > 0", Action: "allow"},
		{Name: "repeating_ints", When: "args.object_name == 'bowl'", Rule: "len(repeat(repeat('a', 100000), 100000)) > 0", Action: "allow"},
	}, s.Hooks.Pre...)
	return s
}
