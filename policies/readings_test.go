package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// readingsSpec guards move_base with two hooks reading the named safety
// readings: a light curtain (bool) and a person distance (number).
func readingsSpec() *schema.Spec {
	s := chainSpec(
		schema.PreHook{Name: "curtain", When: "tool.physical", Rule: "!readings.light_curtain", Action: "block", Reason: "the light curtain is broken"},
		schema.PreHook{Name: "person", When: "tool.physical", Rule: "readings.person_distance < 1.0 || readings.age_s.person_distance > 0.5", Action: "block", Reason: "a person is near"},
	)
	s.Tools["move_base"] = schema.ToolContract{Tags: []string{"base_motion"}, Physical: true}
	s.Safety.Readings = &schema.SafetyReadings{Tool: "readings", Values: map[string]string{"light_curtain": "bool", "person_distance": "number"}}
	return s
}

func readingsEnv(values, ages map[string]any) runlog.Envelope {
	return runlog.Envelope{Success: true, Value: map[string]any{"readings": values, "age_s": ages}}
}

// TestPreReadings: the chain takes the named readings once, after the
// decision, and every hook judges that one taking; a missing, stale (the
// tool fails), null or mistyped reading blocks with the reason.
func TestPreReadings(t *testing.T) {
	clear := map[string]any{"light_curtain": true, "person_distance": 2.0}
	fresh := map[string]any{"light_curtain": 0.02, "person_distance": 0.03}
	tests := []struct {
		name    string
		reading runlog.Envelope
		allowed bool
		reason  string
	}{
		{name: "clear and far", reading: readingsEnv(clear, fresh), allowed: true},
		{name: "curtain broken", reading: readingsEnv(map[string]any{"light_curtain": false, "person_distance": 2.0}, fresh), reason: "light curtain is broken"},
		{name: "person near", reading: readingsEnv(map[string]any{"light_curtain": true, "person_distance": 0.4}, fresh), reason: "a person is near"},
		{name: "old by a rule's own bound", reading: readingsEnv(clear, map[string]any{"light_curtain": 0.02, "person_distance": 0.9}), reason: "a person is near"},
		{name: "stale: the tool fails", reading: runlog.Failure("readings: reading light_curtain: the latest message on /light_curtain is 1.2s old, older than its max_age 300ms"),
			reason: "older than its max_age"},
		{name: "missing reading", reading: readingsEnv(map[string]any{"person_distance": 2.0}, fresh), reason: `"light_curtain" is missing`},
		{name: "null reading", reading: readingsEnv(map[string]any{"light_curtain": nil, "person_distance": 2.0}, fresh), reason: `"light_curtain" is missing`},
		{name: "no age", reading: readingsEnv(clear, map[string]any{"person_distance": 0.1}), reason: "has no age"},
		{name: "mistyped", reading: readingsEnv(map[string]any{"light_curtain": "ok", "person_distance": 2.0}, fresh), reason: "not a bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := readingsSpec()
			tools := &fakeTools{results: map[string]runlog.Envelope{"readings": tc.reading}}
			p := newPolicy(t, s, tools, nil, nil)
			var evs []runlog.Event
			res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{"direction": "front", "distance_m": 0.2}, &evs))
			if res.Allowed != tc.allowed {
				t.Fatalf("allowed %v, want %v (%s)", res.Allowed, tc.allowed, res.Reason)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Fatalf("reason %q does not contain %q", res.Reason, tc.reason)
			}
			if n := tools.count("readings"); n != 1 {
				t.Fatalf("the readings tool was called %d times for one chain, want 1", n)
			}
		})
	}
}

// TestPreReadingsNotConfigured: a rule reading readings with no readings
// tool fails closed.
func TestPreReadingsNotConfigured(t *testing.T) {
	s := readingsSpec()
	rules, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s.Rules = rules
	s.Safety.Readings = nil
	p, err := NewWithActions(engine.PolicyEnv{Spec: s, Tools: &fakeTools{}}, NewActions())
	if err != nil {
		t.Fatal(err)
	}
	var evs []runlog.Event
	res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{}, &evs))
	if res.Allowed || !strings.Contains(res.Reason, "no safety readings are configured") {
		t.Fatalf("allowed %v, reason %q", res.Allowed, res.Reason)
	}
}
