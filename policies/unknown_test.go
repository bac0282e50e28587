package policies

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// observed is an observation as a back-end sends it (JSON): what it left
// out is missing.
func observed(t *testing.T, js string) *world.Observation {
	t.Helper()
	var o world.Observation
	if err := json.Unmarshal([]byte(js), &o); err != nil {
		t.Fatal(err)
	}
	return &o
}

// A safety rule that reads a value the back-end did not send fails closed:
// a block hook blocks naming the value, a confirm hook asks, an allow hook
// does not allow; `??` is the rule saying what a missing value means.
func TestMissingReadingFailsClosed(t *testing.T) {
	curtain := schema.PreHook{Name: "curtain", When: "tool.physical", Action: "block",
		Rule: "observation.state.light_curtain == true", Reason: "the light curtain is broken"}
	tests := []struct {
		name      string
		hook      schema.PreHook
		obs       string
		user      *fakeUser
		allowed   bool
		reason    string
		decisions string
	}{
		{name: "curtain clear", hook: curtain, obs: `{"state": {"light_curtain": false}}`, allowed: true, decisions: "skip"},
		{name: "curtain broken", hook: curtain, obs: `{"state": {"light_curtain": true}}`, reason: "the light curtain is broken", decisions: "block"},
		{name: "reading missing blocks", hook: curtain, obs: `{"state": {"battery": 0.9}}`,
			reason: `hook "curtain": observation.state.light_curtain is missing`, decisions: "block"},
		{name: "reading null blocks", hook: curtain, obs: `{"state": {"light_curtain": null}}`,
			reason: "observation.state.light_curtain is missing", decisions: "block"},
		{name: "no state at all blocks", hook: curtain, obs: `{"pose": {"x": 1, "y": 1, "theta_deg": 0}}`,
			reason: "observation.state is missing", decisions: "block"},
		{name: "?? says what missing means", obs: `{"state": {}}`, allowed: true, decisions: "skip",
			hook: schema.PreHook{Name: "curtain", Action: "block", Rule: "(observation.state.light_curtain ?? false) == true"}},
		{name: "?? can mean blocked", obs: `{"state": {}}`, reason: "blocked by hook", decisions: "block",
			hook: schema.PreHook{Name: "curtain", Action: "block", Rule: "observation.state.light_curtain ?? true"}},
		{name: "a missing held is not an empty gripper", obs: `{"pose": {"x": 1, "y": 1, "theta_deg": 0}}`,
			hook:   schema.PreHook{Name: "hands", Action: "block", Rule: "observation.held != ''"},
			reason: "observation.held is missing", decisions: "block"},
		{name: "held sent empty is an empty gripper", obs: `{"held": ""}`, allowed: true, decisions: "skip",
			hook: schema.PreHook{Name: "hands", Action: "block", Rule: "observation.held != ''"}},
		{name: "a gripper without closed is not an open gripper", obs: `{"gripper": {"opening_m": 0.02}}`,
			hook:   schema.PreHook{Name: "grip", Action: "block", Rule: "observation.gripper.closed"},
			reason: "observation.gripper.closed is missing", decisions: "block"},
		{name: "a gripper sent open", obs: `{"gripper": {"opening_m": 0.08, "closed": false}}`, allowed: true, decisions: "skip",
			hook: schema.PreHook{Name: "grip", Action: "block", Rule: "observation.gripper.closed"}},
		{name: "a pose without x", obs: `{"pose": {"y": 1}}`,
			hook:   schema.PreHook{Name: "zone", Action: "block", Rule: "observation.pose.x > 5"},
			reason: "observation.pose.x is missing", decisions: "block"},
		{name: "a missing reading in when selects the hook", obs: `{}`,
			hook:   schema.PreHook{Name: "w", Action: "block", When: "observation.state.armed"},
			reason: "observation.state is missing", decisions: "block"},
		{name: "confirm asks", obs: `{}`, user: &fakeUser{answer: "yes"}, allowed: true, decisions: "confirm",
			hook: schema.PreHook{Name: "ask", Action: "confirm", Rule: "observation.state.person_near == true", Config: ConfirmConfig{Prompt: "Move?"}}},
		{name: "confirm refused", obs: `{}`, user: &fakeUser{answer: "no"}, reason: "observation.state is missing", decisions: "block",
			hook: schema.PreHook{Name: "ask", Action: "confirm", Rule: "observation.state.person_near == true", Config: ConfirmConfig{Prompt: "Move?"}}},
		{name: "allow does not allow on an unknown", obs: `{}`, allowed: true, decisions: "skip",
			hook: schema.PreHook{Name: "ok", Action: "allow", Rule: "observation.state.docked == true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := chainSpec(tt.hook)
			var p *Policy
			if tt.user != nil {
				p = newPolicy(t, s, &fakeTools{}, nil, tt.user)
			} else {
				p = newPolicy(t, s, &fakeTools{}, nil, nil)
			}
			var evs []runlog.Event
			cc := callCtx(s, "move_base", map[string]any{"direction": "front", "distance_m": 0.5}, &evs)
			cc.Observation = observed(t, tt.obs)
			res := p.Pre(t.Context(), cc)
			if res.Allowed != tt.allowed {
				t.Fatalf("Allowed = %v (reason %q), want %v", res.Allowed, res.Reason, tt.allowed)
			}
			if !tt.allowed && !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", res.Reason, tt.reason)
			}
			if got := decisions(res.Decisions); got != tt.decisions {
				t.Errorf("decisions = %q, want %q", got, tt.decisions)
			}
			if tt.user != nil && (len(tt.user.asked) != 1 || !strings.Contains(tt.user.asked[0].Text, "observation.state is missing")) {
				t.Errorf("questions = %+v, want one naming the missing value", tt.user.asked)
			}
		})
	}
}

// A check that reads a value the evidence lacks does not confirm the call.
func TestCheckOfAMissingValueIsNotConfirmed(t *testing.T) {
	prog := compileCheck(t, "after.held == args.object_name || after.held == ''")
	env := &schema.CheckEnv{Args: map[string]any{"object_name": "mug"}, After: *observed(t, `{"summary": "a view"}`)}
	v := judgeCheck("pick_up", prog, env)
	if v.Status != world.VerdictFailure || !strings.Contains(v.Reason, "not confirmed: after.held is missing") {
		t.Fatalf("verdict = %+v, want a failure: after.held is missing", v)
	}
	env.After = *observed(t, `{"held": ""}`)
	if v := judgeCheck("pick_up", prog, env); v.Status != world.VerdictSuccess {
		t.Fatalf("with held sent empty: %+v", v)
	}
}

func compileCheck(t *testing.T, src string) *vm.Program {
	t.Helper()
	s := &schema.Spec{Tools: map[string]schema.ToolContract{"pick_up": {Physical: true, Check: src}}}
	rules, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rules.Checks["pick_up"]
}
