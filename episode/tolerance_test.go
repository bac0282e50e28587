package episode_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// recordedObservation is an episode of one observation, recorded at format
// (0: a run log without one).
func recordedObservation(t *testing.T, format int, obs string) []episode.Step {
	t.Helper()
	info := `{"spec_digest":"sha256:0"}`
	if format > 0 {
		info = `{"spec_digest":"sha256:0","format":` + string(rune('0'+format)) + `}`
	}
	ep, err := replay.Parse("rec.jsonl", []byte(`{"kind":"task_start","turn":0,"text":"go","episode":`+info+`}
{"kind":"observation","turn":1,"tool":"observe","observation":`+obs+`}
`))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := episode.Steps(ep)
	if err != nil || len(steps) != 1 {
		t.Fatalf("steps %v %v", steps, err)
	}
	return steps
}

// observed is a replay's observation event, decoded as the harness
// decodes a back-end's observation (the one world.Observation).
func observed(t *testing.T, obs map[string]any) runlog.Event {
	t.Helper()
	b, err := json.Marshal(obs)
	if err != nil {
		t.Fatal(err)
	}
	var o world.Observation
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return runlog.Event{Kind: runlog.EventObservation, Turn: 1, Tool: "observe", Observation: &o}
}

// What an older Thea did not record (the quadruped's "held": "" that a
// recording two releases old lacks) is not a divergence; in a recording of
// today's format it is, and a changed value is in both.
func TestOlderRecordingLacksAField(t *testing.T) {
	const rec = `{"pose":{"x":1,"y":2,"theta_deg":0},"state":{"battery":0.9},"summary":"at (1.00, 2.00)"}`
	now := map[string]any{"pose": map[string]any{"x": 1.0, "y": 2.0}, "state": map[string]any{"battery": 0.9}, "summary": "at (1.00, 2.00)", "held": ""}
	for _, tc := range []struct {
		name    string
		format  int
		obs     map[string]any
		field   string // "" when the replay agrees
		message string
	}{
		{"no format, a field added", 0, now, "", ""},
		{"format 2, a field added", 2, now, "", ""},
		{"today's format, a field added", runlog.Format, now, "observation.held", `observation.held: recorded absent, now ""`},
		{"no format, a value changed", 0, map[string]any{"pose": map[string]any{"x": 1.5, "y": 2.0}, "state": map[string]any{"battery": 0.9}, "summary": "at (1.00, 2.00)", "held": ""}, "observation.pose.x", "observation.pose.x: recorded 1, now 1.5 (tolerance 0)"},
		{"no format, a recorded field gone", 0, map[string]any{"pose": map[string]any{"x": 1.0, "y": 2.0}, "summary": "at (1.00, 2.00)"}, "observation.state", "observation.state: recorded {\"battery\":0.9}, now absent"},
	} {
		c := episode.NewComparatorWith(recordedObservation(t, tc.format, rec), episode.Matching{Format: formatOf(tc.format)})
		c.Observe(observed(t, tc.obs))
		c.Finish()
		d, err := c.Result()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.field == "" && d != nil:
			t.Errorf("%s: diverged: %s", tc.name, d)
		case tc.field != "" && (d == nil || d.Field == nil || d.Field.Path != tc.field || !strings.Contains(d.String(), tc.message)):
			t.Errorf("%s: divergence %v, want %s", tc.name, d, tc.message)
		}
	}
}

// formatOf is the format thea test reads from a recording without one.
func formatOf(f int) int { return max(f, 1) }

// Observations compare within the spec's tolerances: a number by its
// field's own tolerance or the default, an age by the age tolerance,
// numbers in text by the default; beyond them the divergence names the
// field, both values and the tolerance.
func TestObservationTolerances(t *testing.T) {
	const rec = `{"pose":{"x":2.004,"y":0.5,"theta_deg":0},"clearance":{"front":1.41,"back":1.4},"age_s":{"pose":0.02},"state":{"battery":0.87},"summary":"at (2.00, 0.50); battery 0.87"}`
	tol := schema.Tolerance{Number: 0.05, Age: schema.Duration(time.Second), Fields: map[string]float64{"clearance.*": 0.1, "state.battery": 0.001}}
	base := func() map[string]any {
		return map[string]any{
			"pose":      map[string]any{"x": 2.004, "y": 0.5},
			"clearance": map[string]any{"front": 1.41, "back": 1.4},
			"age_s":     map[string]any{"pose": 0.02},
			"state":     map[string]any{"battery": 0.87},
			"summary":   "at (2.00, 0.50); battery 0.87",
		}
	}
	for _, tc := range []struct {
		name    string
		edit    func(m map[string]any)
		message string // "" when within tolerance
	}{
		{"equal", func(map[string]any) {}, ""},
		{"pose within number", func(m map[string]any) { m["pose"].(map[string]any)["x"] = 2.04 }, ""},
		{"pose beyond number", func(m map[string]any) { m["pose"].(map[string]any)["x"] = 2.1 }, "observation.pose.x: recorded 2.004, now 2.1 (tolerance 0.05)"},
		{"clearance within its pattern", func(m map[string]any) { m["clearance"].(map[string]any)["front"] = 1.5 }, ""},
		{"clearance beyond its pattern", func(m map[string]any) { m["clearance"].(map[string]any)["back"] = 1.6 }, "observation.clearance.back: recorded 1.4, now 1.6 (tolerance 0.1)"},
		{"battery beyond its field", func(m map[string]any) { m["state"].(map[string]any)["battery"] = 0.86 }, "observation.state.battery: recorded 0.87, now 0.86 (tolerance 0.001)"},
		{"age within age", func(m map[string]any) { m["age_s"].(map[string]any)["pose"] = 0.9 }, ""},
		{"age beyond age", func(m map[string]any) { m["age_s"].(map[string]any)["pose"] = 1.5 }, "observation.age_s.pose: recorded 0.02, now 1.5 (tolerance 1s)"},
		{"numbers in text within", func(m map[string]any) { m["summary"] = "at (2.03, 0.49); battery 0.87" }, ""},
		{"numbers in text beyond", func(m map[string]any) { m["summary"] = "at (2.30, 0.50); battery 0.87" }, `observation.summary: recorded "at (2.00, 0.50); battery 0.87", now "at (2.30, 0.50); battery 0.87" (tolerance 0.05)`},
		{"words in text changed", func(m map[string]any) { m["summary"] = "near (2.00, 0.50); battery 0.87" }, "observation.summary"},
	} {
		c := episode.NewComparatorWith(recordedObservation(t, runlog.Format, rec), episode.Matching{Tolerance: tol, Format: runlog.Format})
		obs := base()
		tc.edit(obs)
		c.Observe(observed(t, obs))
		d, err := c.Result()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.message == "" && d != nil:
			t.Errorf("%s: diverged: %s", tc.name, d)
		case tc.message != "" && (d == nil || !strings.Contains(d.String(), tc.message)):
			t.Errorf("%s: divergence %v, want %q", tc.name, d, tc.message)
		}
	}
}

// What the harness did compares exactly whatever the tolerances: a tool
// call's argument 0.01 away diverges under a tolerance of 1.
func TestCallsCompareExactly(t *testing.T) {
	ep, err := replay.Parse("rec.jsonl", []byte(`{"kind":"task_start","turn":0,"text":"go"}
{"kind":"tool_call","turn":1,"tool":"move","args":{"d":0.5}}
`))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := episode.Steps(ep)
	if err != nil {
		t.Fatal(err)
	}
	c := episode.NewComparatorWith(steps, episode.Matching{Tolerance: schema.Tolerance{Number: 1}, Format: runlog.Format})
	c.Observe(runlog.Event{Kind: runlog.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 0.51}})
	if d, _ := c.Result(); d == nil || d.Field == nil || d.Field.String() != "args.d: recorded 0.5, now 0.51" {
		t.Errorf("divergence %v", d)
	}
}
