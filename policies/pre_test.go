package policies

import (
	"math"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

func TestPreClearance(t *testing.T) {
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		reading   runlog.Envelope
		noSource  bool
		allowed   bool
		reason    string  // substring of the block reason
		distance  float64 // expected distance_m after the chain, when allowed
		readings  int
		decisions string
	}{
		{name: "clamped to clearance minus margin", tool: "move_base",
			args: map[string]any{"direction": "front", "distance_m": 2.0}, reading: clearanceEnv(0.7, 1, 1, 1),
			allowed: true, distance: 0.6, readings: 1, decisions: "skip clamp"},
		{name: "clamped to the profile's max translation", tool: "move_base",
			args: map[string]any{"direction": "left", "distance_m": 3.0}, reading: clearanceEnv(0.7, 1, 5, 1),
			allowed: true, distance: 1.0, readings: 1, decisions: "skip clamp"},
		{name: "within bounds is unchanged", tool: "move_base",
			args: map[string]any{"direction": "back", "distance_m": 0.25}, reading: clearanceEnv(0.7, 1, 1, 1),
			allowed: true, distance: 0.25, readings: 1, decisions: "skip clamp"},
		{name: "no admissible distance blocks", tool: "move_base",
			args: map[string]any{"direction": "right", "distance_m": 0.5}, reading: clearanceEnv(2, 2, 2, 0.05),
			reason: "too close to an obstacle", readings: 1, decisions: "skip block"},
		{name: "unknown direction reads as zero clearance and blocks", tool: "move_base",
			args: map[string]any{"direction": "up", "distance_m": 0.5}, reading: clearanceEnv(2, 2, 2, 2),
			reason: "max -0.1 is below min 0", readings: 1, decisions: "skip block"},
		{name: "missing argument blocks", tool: "move_base",
			args: map[string]any{"direction": "front"}, reading: clearanceEnv(2, 2, 2, 2),
			reason: `"distance_m" is missing`, readings: 1, decisions: "skip block"},
		{name: "non-numeric argument blocks", tool: "move_base",
			args: map[string]any{"direction": "front", "distance_m": "far"}, reading: clearanceEnv(2, 2, 2, 2),
			reason: "not a number", readings: 1, decisions: "skip block"},
		{name: "navigation blocked when no direction is admissible", tool: "navigate",
			args: map[string]any{"room": "kitchen"}, reading: clearanceEnv(0.2, 0.3, 0.1, 0.05),
			reason: "no direction is admissible", readings: 1, decisions: "block"},
		{name: "navigation allowed when one direction is admissible", tool: "navigate",
			args: map[string]any{"room": "kitchen"}, reading: clearanceEnv(0.2, 0.31, 0.1, 0.05),
			allowed: true, readings: 1, decisions: "skip skip"},
		{name: "no clearance source fails closed", tool: "move_base", noSource: true,
			args:   map[string]any{"direction": "front", "distance_m": 0.2},
			reason: "no clearance source is configured", readings: 0, decisions: "skip block"},
		{name: "failed reading fails closed", tool: "navigate",
			args: map[string]any{}, reading: runlog.Failure("lidar offline"),
			reason: "lidar offline", readings: 1, decisions: "block"},
		{name: "malformed reading fails closed", tool: "navigate",
			args: map[string]any{}, reading: runlog.Envelope{Success: true, Value: map[string]any{"front": 1.0, "back": "x"}},
			reason: `"back" is x, not a distance`, readings: 1, decisions: "block"},
		{name: "reading nested under clearance", tool: "move_base",
			args:    map[string]any{"direction": "forward", "distance_m": 2.0},
			reading: runlog.Envelope{Success: true, Value: map[string]any{"clearance": map[string]any{"front": 0.5, "back": 1.0, "left": 1.0, "right": 1.0}}},
			allowed: true, distance: 0.4, readings: 1, decisions: "skip clamp"},
		{name: "a call no hook selects takes no reading", tool: "query_user",
			args: map[string]any{"text": "which mug?"}, reading: clearanceEnv(0, 0, 0, 0),
			allowed: true, readings: 0, decisions: "skip skip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := householdSpec()
			if tt.noSource {
				s.Safety.ClearanceTool = ""
			}
			tools := &fakeTools{results: map[string]runlog.Envelope{"clearance": tt.reading}}
			p := newPolicy(t, s, tools, nil, nil)
			var evs []runlog.Event
			res := p.Pre(t.Context(), callCtx(s, tt.tool, tt.args, &evs))
			if res.Allowed != tt.allowed {
				t.Fatalf("Allowed = %v (reason %q), want %v", res.Allowed, res.Reason, tt.allowed)
			}
			if !tt.allowed && !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", res.Reason, tt.reason)
			}
			if tt.allowed && tt.distance != 0 {
				if got, _ := toFloat(res.Args["distance_m"]); math.Abs(got-tt.distance) > 1e-9 {
					t.Errorf("distance_m = %v, want %v", res.Args["distance_m"], tt.distance)
				}
			}
			if n := tools.count("clearance"); n != tt.readings {
				t.Errorf("clearance readings = %d, want %d", n, tt.readings)
			}
			if got := decisions(res.Decisions); got != tt.decisions {
				t.Errorf("decisions = %q, want %q", got, tt.decisions)
			}
			if len(evs) != len(res.Decisions) {
				t.Fatalf("%d hook events for %d verdicts", len(evs), len(res.Decisions))
			}
			for i, e := range evs {
				if e.Kind != runlog.EventHook || e.Hook == nil || e.Hook.Hook != res.Decisions[i].Hook || e.CallID != "c1" || e.Turn != 3 {
					t.Errorf("event %d = %+v, want the hook decision %+v", i, e, res.Decisions[i])
				}
			}
		})
	}
}

func decisions(vs []runlog.Decision) string {
	var d []string
	for _, v := range vs {
		d = append(d, string(v.Decision))
	}
	return strings.Join(d, " ")
}

func TestPreClampRecordsBeforeAfter(t *testing.T) {
	s := householdSpec()
	tools := &fakeTools{results: map[string]runlog.Envelope{"clearance": clearanceEnv(0.5, 1, 1, 1)}}
	p := newPolicy(t, s, tools, nil, nil)
	var evs []runlog.Event
	args := map[string]any{"direction": "front", "distance_m": 0.9}
	res := p.Pre(t.Context(), callCtx(s, "move_base", args, &evs))
	v := res.Decisions[1]
	if v.Before["distance_m"] != 0.9 || math.Abs(v.After["distance_m"].(float64)-0.4) > 1e-9 {
		t.Errorf("before/after = %v / %v, want 0.9 / 0.4", v.Before, v.After)
	}
	if args["distance_m"] != 0.9 {
		t.Errorf("the caller's arguments were changed: %v", args)
	}
	if res.Hook != "translation" {
		t.Errorf("Hook = %q, want translation", res.Hook)
	}
}

// chainSpec builds a spec whose only hooks are the given pre-hooks.
func chainSpec(pre ...schema.PreHook) *schema.Spec {
	s := householdSpec()
	s.Hooks.Pre = pre
	return s
}

func TestPreActions(t *testing.T) {
	tests := []struct {
		name      string
		hooks     []schema.PreHook
		args      map[string]any
		user      *fakeUser
		allowed   bool
		reason    string
		hook      string
		wantArgs  map[string]any
		decisions string
	}{
		{name: "block with its reason",
			hooks:  []schema.PreHook{{Name: "no_knives", Action: "block", Rule: "args.object_name == 'knife'", Reason: "knives are off limits"}},
			args:   map[string]any{"object_name": "knife"},
			reason: "knives are off limits", hook: "no_knives", decisions: "block"},
		{name: "block whose rule does not hold lets the call through",
			hooks:   []schema.PreHook{{Name: "no_knives", Action: "block", Rule: "args.object_name == 'knife'"}},
			args:    map[string]any{"object_name": "mug"},
			allowed: true, decisions: "skip"},
		{name: "block without a reason names the hook",
			hooks:  []schema.PreHook{{Name: "never", Action: "block"}},
			args:   map[string]any{},
			reason: `blocked by hook "never"`, hook: "never", decisions: "block"},
		{name: "allow ends the chain before a later block",
			hooks: []schema.PreHook{
				{Name: "trusted", Action: "allow", Rule: "args.object_name == 'mug'"},
				{Name: "never", Action: "block"},
			},
			args:    map[string]any{"object_name": "mug"},
			allowed: true, hook: "trusted", decisions: "allow"},
		{name: "allow whose rule fails falls through to the block",
			hooks: []schema.PreHook{
				{Name: "trusted", Action: "allow", Rule: "args.object_name == 'mug'"},
				{Name: "never", Action: "block", Reason: "nope"},
			},
			args:   map[string]any{"object_name": "cup"},
			reason: "nope", hook: "never", decisions: "skip block"},
		{name: "block before allow wins",
			hooks: []schema.PreHook{
				{Name: "never", Action: "block", Reason: "nope"},
				{Name: "trusted", Action: "allow"},
			},
			args:   map[string]any{},
			reason: "nope", hook: "never", decisions: "block"},
		{name: "when selects the hook by tags",
			hooks: []schema.PreHook{
				{Name: "manip_only", When: "'manipulation' in tool.tags", Action: "block", Reason: "manip"},
			},
			args:    map[string]any{"direction": "front", "distance_m": 0.1},
			allowed: true, decisions: "skip"},
		{name: "rewrite sets arguments from expressions",
			hooks: []schema.PreHook{{Name: "slow", Action: "rewrite", Config: RewriteConfig{Rewrite: map[string]string{
				"speed": "min([args.speed, limits.max_speed_mps])", "mode": "'careful'"}}}},
			args:    map[string]any{"speed": 2.0, "distance_m": 0.2},
			allowed: true, hook: "slow", wantArgs: map[string]any{"speed": 0.5, "mode": "careful", "distance_m": 0.2},
			decisions: "rewrite"},
		{name: "chain order: a clamp sees the rewritten value",
			hooks: []schema.PreHook{
				{Name: "double", Action: "rewrite", Config: RewriteConfig{Rewrite: map[string]string{"distance_m": "args.distance_m * 2"}}},
				{Name: "cap", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Max: "limits.max_translation_m"}}},
			},
			args:    map[string]any{"distance_m": 0.8},
			allowed: true, hook: "cap", wantArgs: map[string]any{"distance_m": 1.0}, decisions: "rewrite clamp"},
		{name: "chain order reversed: the rewrite comes after the clamp",
			hooks: []schema.PreHook{
				{Name: "cap", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Max: "limits.max_translation_m"}}},
				{Name: "double", Action: "rewrite", Config: RewriteConfig{Rewrite: map[string]string{"distance_m": "args.distance_m * 2"}}},
			},
			args:    map[string]any{"distance_m": 0.8},
			allowed: true, hook: "double", wantArgs: map[string]any{"distance_m": 1.6}, decisions: "clamp rewrite"},
		{name: "confirm yes proceeds",
			hooks:   []schema.PreHook{{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}}},
			args:    map[string]any{"distance_m": 0.2},
			user:    &fakeUser{answer: " Yes "},
			allowed: true, hook: "ask", decisions: "confirm"},
		{name: "confirm no blocks",
			hooks:  []schema.PreHook{{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}}},
			args:   map[string]any{"distance_m": 0.2},
			user:   &fakeUser{answer: "no"},
			reason: "did not confirm", hook: "ask", decisions: "block"},
		{name: "confirm with anything but yes blocks",
			hooks:  []schema.PreHook{{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}, Reason: "the operator refused"}},
			args:   map[string]any{"distance_m": 0.2},
			user:   &fakeUser{answer: "maybe"},
			reason: "the operator refused", hook: "ask", decisions: "block"},
		{name: "confirm without a user blocks",
			hooks:  []schema.PreHook{{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}}},
			args:   map[string]any{"distance_m": 0.2},
			reason: "no confirmation channel", hook: "ask", decisions: "block"},
		{name: "confirm whose question fails blocks",
			hooks:  []schema.PreHook{{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}}},
			args:   map[string]any{"distance_m": 0.2},
			user:   &fakeUser{err: errUnreachable},
			reason: "unreachable", hook: "ask", decisions: "block"},
		{name: "rule reading a missing key fails closed",
			hooks:  []schema.PreHook{{Name: "fast", Action: "block", Rule: "args.sped > 1"}},
			args:   map[string]any{"speed": 2.0},
			reason: `hook "fast": args.sped is missing`, hook: "fast", decisions: "block"},
		{name: "rule with a type mismatch fails closed",
			hooks:  []schema.PreHook{{Name: "fast", Action: "allow", When: "args.speed > 1"}},
			args:   map[string]any{"speed": "fast"},
			reason: `hook "fast": when failed`, hook: "fast", decisions: "block"},
		{name: "rewrite error fails closed",
			hooks:  []schema.PreHook{{Name: "r", Action: "rewrite", Config: RewriteConfig{Rewrite: map[string]string{"x": "args.y + 1"}}}},
			args:   map[string]any{},
			reason: `rewrite of "x" failed`, hook: "r", decisions: "block"},
		{name: "clamp bound of unknown type fails closed at run time",
			hooks:  []schema.PreHook{{Name: "c", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Max: "args.limit"}}}},
			args:   map[string]any{"distance_m": 1.0, "limit": "one"},
			reason: "clamp max", hook: "c", decisions: "block"},
		{name: "a config of another action fails closed",
			hooks:  []schema.PreHook{{Name: "r", Action: "rewrite", Config: ClampConfig{Clamp: &Clamp{Arg: "speed", Max: "0.1"}}}},
			args:   map[string]any{"speed": 2.0},
			reason: "its config is a policies.ClampConfig, not the policies.RewriteConfig", hook: "r", decisions: "block"},
		{name: "clamp without an argument to clamp fails closed",
			hooks:  []schema.PreHook{{Name: "c", Action: "clamp"}},
			args:   map[string]any{"distance_m": 1.0},
			reason: "needs clamp.arg", hook: "c", decisions: "block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := chainSpec(tt.hooks...)
			var user *fakeUser
			var p *Policy
			if tt.user != nil {
				user = tt.user
				p = newPolicy(t, s, &fakeTools{}, nil, user)
			} else {
				p = newPolicy(t, s, &fakeTools{}, nil, nil)
			}
			var evs []runlog.Event
			res := p.Pre(t.Context(), callCtx(s, "move_base", tt.args, &evs))
			if res.Allowed != tt.allowed {
				t.Fatalf("Allowed = %v (reason %q), want %v", res.Allowed, res.Reason, tt.allowed)
			}
			if !tt.allowed && !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", res.Reason, tt.reason)
			}
			if res.Hook != tt.hook {
				t.Errorf("Hook = %q, want %q", res.Hook, tt.hook)
			}
			if got := decisions(res.Decisions); got != tt.decisions {
				t.Errorf("decisions = %q, want %q", got, tt.decisions)
			}
			for k, want := range tt.wantArgs {
				if !sameValue(res.Args[k], want) {
					t.Errorf("args[%s] = %v, want %v", k, res.Args[k], want)
				}
			}
			if user != nil && (len(user.asked) != 1 || user.asked[0].Text != "Move?" || strings.Join(user.asked[0].Choices, "/") != "yes/no") {
				t.Errorf("questions = %+v, want one yes/no question", user.asked)
			}
		})
	}
}

func TestNewRejectsUnknownAction(t *testing.T) {
	s := chainSpec(schema.PreHook{Name: "x", Action: "teleport"})
	_, err := New(engine.PolicyEnv{Spec: s})
	if err == nil || !strings.Contains(err.Error(), `unknown pre-hook action "teleport"`) {
		t.Errorf("err = %v, want an unknown action error", err)
	}
}

func TestNewCompilesRulesAndFailsOnErrors(t *testing.T) {
	s := chainSpec(schema.PreHook{Name: "x", Action: "block", Rule: "clearance.frnt < 1"})
	_, err := New(engine.PolicyEnv{Spec: s})
	if err == nil || !strings.Contains(err.Error(), "hooks.pre[0].rule") {
		t.Errorf("err = %v, want the rule's path", err)
	}
	s = householdSpec()
	if _, err := New(engine.PolicyEnv{Spec: s}); err != nil {
		t.Errorf("a spec without compiled rules must compile them: %v", err)
	}
}
