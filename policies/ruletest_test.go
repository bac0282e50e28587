package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

func ruleTestSpec(tests ...schema.RuleTest) *schema.Spec {
	s := householdSpec()
	s.Hooks.Pre = append(s.Hooks.Pre,
		schema.PreHook{Name: "slow", When: "'manipulation' in tool.tags", Action: "rewrite",
			Config: RewriteConfig{Rewrite: map[string]string{"speed": "limits.max_speed_mps"}}},
		schema.PreHook{Name: "knife", When: "tool.name == 'pick_up' && args.object_name == 'knife'", Action: "confirm",
			Config: ConfirmConfig{Prompt: "Pick up the knife?"}},
	)
	s.Tests = tests
	return s
}

func yes() *bool { b := true; return &b }

func TestRunRuleTestsPass(t *testing.T) {
	s := ruleTestSpec(
		schema.RuleTest{Name: "clamp front",
			Call:      &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "front", "distance_m": 2}},
			Clearance: world.Clearance{"front": 0.7, "back": 1, "left": 1, "right": 1},
			Expect:    schema.TestExpect{Verdict: "allow", Hook: "translation", Args: map[string]any{"distance_m": 0.6, "direction": "front"}}},
		schema.RuleTest{Name: "boxed in",
			Call:      &schema.TestCall{Tool: "navigate", Args: map[string]any{"room": "kitchen"}},
			Clearance: world.Clearance{"front": 0.1, "back": 0.1, "left": 0.1, "right": 0.1},
			Expect:    schema.TestExpect{Verdict: "block", Hook: "boxed_in", ReasonContains: "no direction is admissible"}},
		schema.RuleTest{Name: "no reading fails closed",
			Call:   &schema.TestCall{Tool: "navigate"},
			Expect: schema.TestExpect{Verdict: "block", ReasonContains: "no clearance reading"}},
		schema.RuleTest{Name: "rewrite",
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "mug", "speed": 3}},
			Expect: schema.TestExpect{Verdict: "allow", Args: map[string]any{"speed": 0.5}}},
		schema.RuleTest{Name: "knife refused by default",
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "knife"}},
			Expect: schema.TestExpect{Verdict: "block", Hook: "knife"}},
		schema.RuleTest{Name: "knife confirmed", Confirm: yes(),
			Call:   &schema.TestCall{Tool: "pick_up", Args: map[string]any{"object_name": "knife"}},
			Expect: schema.TestExpect{Verdict: "allow", Hook: "knife"}},
	)
	if diags := RunRuleTests(t.Context(), s, nil); len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
}

func TestRunRuleTestsFail(t *testing.T) {
	front := world.Clearance{"front": 0.7, "back": 1, "left": 1, "right": 1}
	s := ruleTestSpec(
		schema.RuleTest{Name: "passes",
			Call:      &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "front", "distance_m": 2}},
			Clearance: front, Expect: schema.TestExpect{Verdict: "allow"}},
		schema.RuleTest{Name: "wrong verdict",
			Call:      &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "front", "distance_m": 2}},
			Clearance: front, Expect: schema.TestExpect{Verdict: "block"}},
		schema.RuleTest{Name: "wrong value",
			Call:      &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "front", "distance_m": 2}},
			Clearance: front, Expect: schema.TestExpect{Verdict: "allow", Args: map[string]any{"distance_m": 0.6000001, "speed": 1}}},
		schema.RuleTest{Name: "wrong hook and reason",
			Call:   &schema.TestCall{Tool: "navigate"},
			Expect: schema.TestExpect{Verdict: "block", Hook: "translation", ReasonContains: "kitchen"}},
		schema.RuleTest{Name: "bad verdict", Call: &schema.TestCall{Tool: "navigate"}, Expect: schema.TestExpect{Verdict: "maybe"}},
		schema.RuleTest{Name: "unknown tool", Call: &schema.TestCall{Tool: "fly"}, Expect: schema.TestExpect{Verdict: "allow"}},
	)
	diags := RunRuleTests(t.Context(), s, nil)
	want := []struct{ path, msg string }{
		{"tests[1]", `rule test "wrong verdict": expected block, got allow`},
		{"tests[2]", "expected argument distance_m = 0.6000001, got 0.6"},
		{"tests[2]", "expected argument speed = 1, but it is missing"},
		{"tests[3]", `expected hook "translation" to decide, got "boxed_in"`},
		{"tests[3]", `expected a reason containing "kitchen"`},
		{"tests[4]", `expect.verdict is "maybe"`},
		{"tests[5]", `call.tool "fly" has no contract`},
	}
	if len(diags) != len(want) {
		t.Fatalf("got %d diagnostics, want %d: %v", len(diags), len(want), diags)
	}
	for i, w := range want {
		d := diags[i]
		if d.Path != w.path || d.Pos != s.Pos(w.path) || !strings.Contains(d.Message, w.msg) {
			t.Errorf("diagnostic %d = %+v, want %s at %s", i, d, w.msg, w.path)
		}
	}
}

func TestRunRuleTestsUncompilableRules(t *testing.T) {
	s := ruleTestSpec(schema.RuleTest{Name: "t", Call: &schema.TestCall{Tool: "navigate"}, Expect: schema.TestExpect{Verdict: "block"}})
	s.Hooks.Pre[0].Rule = "clearance.frnt < 1"
	diags := RunRuleTests(t.Context(), s, nil)
	if len(diags) != 1 || diags[0].Path != "hooks.pre[0].rule" || !strings.Contains(diags[0].Message, "rule tests not run") {
		t.Errorf("diagnostics = %v", diags)
	}
}

// TestHouseholdExampleRules runs the bundled household example's hooks,
// checks and rule tests (copied here as Go) through CompileRules and
// RunRuleTests.
func TestHouseholdExampleRules(t *testing.T) {
	s := &schema.Spec{
		Embodiment: schema.Embodiment{Limits: schema.Limits{MaxTranslationM: 1.0, MinClearanceM: 0.3, SafetyMarginM: 0.1}},
		Safety:     schema.Safety{ClearanceTool: "get_clearance"},
		Tools: map[string]schema.ToolContract{
			"move_base":     {Tags: []string{"base_motion"}, Physical: true},
			"navigate_to":   {Tags: []string{"base_motion"}, Physical: true},
			"place":         {Tags: []string{"manipulation"}, Check: "any(after.detections, .name == args.object_name && .relation == args.relation && .target == args.target)"},
			"open_drawer":   {Tags: []string{"manipulation"}, Check: `after.state.drawers[args.name] == "open"`},
			"get_clearance": {Hidden: true},
		},
		Hooks: schema.Hooks{
			Pre: []schema.PreHook{
				{Name: "boxed_in", When: "'base_motion' in tool.tags", Action: "block", Rule: "!clearance.any_admissible", Reason: "No direction has enough clearance"},
				{Name: "clamp_translation", When: "tool.name == 'move_base'", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Min: "0",
					Max: "min(limits.max_translation_m, clearance.toward(args.direction) - limits.safety_margin_m)"}}},
				{Name: "confirm_nothing", When: "false", Action: "confirm", Config: ConfirmConfig{Prompt: "Allow this call?"}},
			},
			Post: []schema.PostHook{
				{Name: "evaluate_manipulation", When: "'manipulation' in tool.tags", Action: "evaluate"},
				{Name: "note_navigation", When: "tool.name == 'navigate_to' && result.success", Action: "note", Config: NoteConfig{Note: "Arrived"}},
			},
		},
		Tests: []schema.RuleTest{
			{Name: "boxed in", Call: &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "forward", "distance_m": 0.5}},
				Clearance: world.Clearance{"front": 0.1, "back": 0.1, "left": 0.1, "right": 0.1},
				Expect:    schema.TestExpect{Verdict: "block", Hook: "boxed_in"}},
			{Name: "clamped", Call: &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "forward", "distance_m": 1.0}},
				Clearance: world.Clearance{"front": 0.5, "back": 2, "left": 2, "right": 2},
				Expect:    schema.TestExpect{Verdict: "allow", Args: map[string]any{"distance_m": 0.4}}},
			{Name: "unchanged", Call: &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "forward", "distance_m": 0.3}},
				Clearance: world.Clearance{"front": 3, "back": 3, "left": 3, "right": 3},
				Expect:    schema.TestExpect{Verdict: "allow", Args: map[string]any{"distance_m": 0.3}}},
		},
	}
	if _, errs := schema.CompileRules(s); len(errs) > 0 {
		t.Fatalf("CompileRules: %v", errs)
	}
	if diags := RunRuleTests(t.Context(), s, nil); len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
}

// A failed rule test quotes the deciding hook's reason; a reason that names
// its hook already (a clamp that could not run) does not name it twice.
func TestRunRuleTestsReasonNamesTheHookOnce(t *testing.T) {
	s := ruleTestSpec(schema.RuleTest{Name: "no distance",
		Call:      &schema.TestCall{Tool: "move_base", Args: map[string]any{"direction": "front"}},
		Clearance: world.Clearance{"front": 0.7, "back": 1, "left": 1, "right": 1},
		Expect:    schema.TestExpect{Verdict: "allow"}})
	diags := RunRuleTests(t.Context(), s, nil)
	want := `rule test "no distance": expected allow, got block (hook "translation": argument "distance_m" is missing, cannot clamp it)`
	if len(diags) != 1 || diags[0].Message != want {
		t.Fatalf("diagnostics %v, want one: %s", diags, want)
	}
}
