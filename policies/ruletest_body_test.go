package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// armSpec is a tabletop arm: one clearance sector (a light curtain), a
// declared limit of its own (max_force_n), a hook reading the observation
// and two confirmations in a row.
func armSpec(tests ...schema.RuleTest) *schema.Spec {
	return &schema.Spec{
		Embodiment: schema.Embodiment{
			ClearanceSectors: []schema.Sector{{Name: "curtain", Aliases: []string{"operator_side"}}},
			Limits:           schema.Limits{MinClearanceM: 0.3, SafetyMarginM: 0.05, Extra: map[string]float64{"max_force_n": 20}},
		},
		Safety: schema.Safety{ClearanceTool: "get_clearance"},
		Tools: map[string]schema.ToolContract{
			"grasp":         {Tags: []string{"gripper"}, Physical: true},
			"move_to":       {Physical: true, Check: "abs(after.end_effector.x - args.x) < 0.01 && after.joints.elbow < 1"},
			"get_clearance": {Hidden: true},
		},
		Hooks: schema.Hooks{Pre: []schema.PreHook{
			{Name: "curtain", When: "tool.physical", Action: "block", Rule: "clearance.curtain < limits.min_clearance_m || clearance.toward('operator_side') < limits.min_clearance_m"},
			{Name: "holding", When: "tool.name == 'grasp'", Action: "block", Rule: "observation.held != '' || observation.gripper?.closed ?? false"},
			{Name: "grip", When: "tool.name == 'grasp'", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "force_n", Min: "1", Max: "limits.max_force_n"}}},
			{Name: "first", When: "tool.name == 'grasp'", Action: "confirm", Config: ConfirmConfig{Prompt: "first?"}},
			{Name: "second", When: "tool.name == 'grasp'", Action: "confirm", Config: ConfirmConfig{Prompt: "second?"}},
		}},
		Tests: tests,
	}
}

func grasp(force float64) *schema.TestCall {
	return &schema.TestCall{Tool: "grasp", Args: map[string]any{"object": "cube", "force_n": force}}
}

var clear = world.Clearance{"curtain": 1.2}

// emptyHand is an observation that says the gripper holds nothing (held
// sent empty); a test without it has held missing, and the holding hook
// blocks.
func emptyHand() *world.Observation {
	o := &world.Observation{}
	o.SetKnown(world.FieldHeld)
	return o
}

func TestRuleTestsOfAnotherBody(t *testing.T) {
	s := armSpec(
		schema.RuleTest{Name: "clamped to the declared limit, both confirmed", Call: grasp(50), Clearance: clear, Observation: emptyHand(),
			Answers: []bool{true, true}, Expect: schema.TestExpect{Verdict: "allow", Args: map[string]any{"force_n": 20.0}}},
		schema.RuleTest{Name: "limits overridden for the test", Call: grasp(50), Clearance: clear, Confirm: yes(), Observation: emptyHand(),
			Limits: map[string]float64{"max_force_n": 35}, Expect: schema.TestExpect{Verdict: "allow", Args: map[string]any{"force_n": 35.0}}},
		schema.RuleTest{Name: "the second confirmation refused", Call: grasp(5), Clearance: clear, Observation: emptyHand(),
			Answers: []bool{true, false}, Expect: schema.TestExpect{Verdict: "block", Hook: "second"}},
		schema.RuleTest{Name: "a hand in the curtain", Call: grasp(5), Clearance: world.Clearance{"curtain": 0.1}, Confirm: yes(),
			Expect: schema.TestExpect{Verdict: "block", Hook: "curtain"}},
		schema.RuleTest{Name: "a reading without the declared sector fails closed", Call: grasp(5), Clearance: world.Clearance{"front": 2}, Confirm: yes(),
			Expect: schema.TestExpect{Verdict: "block", Hook: "curtain", ReasonContains: `sector "curtain" is missing`}},
		schema.RuleTest{Name: "the observation says the gripper is closed", Call: grasp(5), Clearance: clear, Confirm: yes(),
			Observation: &world.Observation{Gripper: &world.Gripper{Closed: true}}, Expect: schema.TestExpect{Verdict: "block", Hook: "holding"}},
		schema.RuleTest{Name: "a missing held reading blocks", Call: grasp(5), Clearance: clear, Confirm: yes(),
			Expect: schema.TestExpect{Verdict: "block", Hook: "holding", ReasonContains: "observation.held is missing"}},
		schema.RuleTest{Name: "check holds", Check: &schema.CheckTest{Tool: "move_to", Args: map[string]any{"x": 0.35},
			After: world.Observation{EndEffector: &world.EndEffectorPose{X: 0.352}, Joints: map[string]float64{"elbow": 0.5}}},
			Expect: schema.TestExpect{Verdict: "success"}},
		schema.RuleTest{Name: "check fails", Check: &schema.CheckTest{Tool: "move_to", Args: map[string]any{"x": 0.35},
			After: world.Observation{EndEffector: &world.EndEffectorPose{X: 0.30}, Joints: map[string]float64{"elbow": 0.5}}},
			Expect: schema.TestExpect{Verdict: "failure", ReasonContains: "does not satisfy the check of move_to"}},
	)
	rules, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatalf("CompileRules: %v", errs)
	}
	s.Rules = rules
	diags, sum := RunRuleTestsSummary(t.Context(), s, nil)
	for _, d := range diags {
		t.Errorf("%s", d.Message)
	}
	if sum.Tests != 9 || sum.Failed != 0 || sum.Rules != 10 {
		t.Errorf("summary = %+v, want 9 tests, none failed, 10 rules", sum)
	}
}

// Each new kind of expectation can fail: a wrong expectation is reported.
func TestRuleTestsOfAnotherBodyFail(t *testing.T) {
	s := armSpec(
		schema.RuleTest{Name: "wrong clamp", Call: grasp(50), Clearance: clear, Confirm: yes(), Observation: emptyHand(),
			Expect: schema.TestExpect{Verdict: "allow", Args: map[string]any{"force_n": 50.0}}},
		schema.RuleTest{Name: "the check does not hold", Check: &schema.CheckTest{Tool: "move_to", Args: map[string]any{"x": 0.35},
			After: world.Observation{EndEffector: &world.EndEffectorPose{X: 0.2}}}, Expect: schema.TestExpect{Verdict: "success"}},
		schema.RuleTest{Name: "unknown limit", Call: grasp(5), Clearance: clear, Limits: map[string]float64{"max_forse_n": 1},
			Expect: schema.TestExpect{Verdict: "allow"}},
		schema.RuleTest{Name: "no check", Check: &schema.CheckTest{Tool: "grasp"}, Expect: schema.TestExpect{Verdict: "success"}},
		schema.RuleTest{Name: "both forms", Call: grasp(5), Check: &schema.CheckTest{Tool: "move_to"}, Expect: schema.TestExpect{Verdict: "allow"}},
	)
	diags, sum := RunRuleTestsSummary(t.Context(), s, nil)
	want := []string{
		"expected argument force_n = 50, got 20",
		"expected success, got failure",
		`limits.max_forse_n is not a limit of the embodiment (did you mean "max_force_n"?)`,
		`check.tool "grasp" has no check`,
		"give either call",
	}
	if len(diags) != len(want) || sum.Failed != len(want) {
		t.Fatalf("diagnostics = %v (summary %+v), want %d", diags, sum, len(want))
	}
	for i, w := range want {
		if !strings.Contains(diags[i].Message, w) {
			t.Errorf("diagnostic %d = %q, want it to contain %q", i, diags[i].Message, w)
		}
	}
}
