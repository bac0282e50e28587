package engine_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// benchEvents are a household turn's heaviest events: an observation with
// detections, state and images, and a tool result with a nested value.
func benchEvents(secret string) []runlog.Event {
	obs := &world.Observation{
		Clearance: world.Clearance{"front": 0.6, "back": 5, "left": 2.2, "right": 2.2},
		Pose:      &world.Pose{X: 10.05, Y: 2.5, Room: "kitchen"},
		Detections: []world.Detection{
			{Name: "mug", Class: "mug", Camera: "head", Relation: "on", Target: "table", Room: "kitchen", DistanceM: 1.1, Visible: true},
			{Name: "plate", Class: "plate", Camera: "wrist", Relation: "in", Target: "sink", Room: "kitchen", DistanceM: 2, Visible: true},
		},
		Images:  []world.Image{{Camera: "head", MIME: "image/png", Width: 320, Height: 240}, {Camera: "wrist", MIME: "image/png"}},
		State:   map[string]any{"drawers": map[string]any{"top_drawer": "closed", "bottom_drawer": "closed"}},
		Summary: "In the kitchen at (10.05, 2.50) facing 0°; gripper empty; sees mug on table at 1.10 m " + secret,
	}
	img := []world.Image{{Camera: "head", MIME: "image/png", Data: make([]byte, 64<<10)}}
	env := &runlog.Envelope{Success: true, RunID: "run-1", Value: map[string]any{
		"arrived_at": "table", "distance_to_target_m": 0.85, "path_length_m": 4.07,
		"pose": map[string]any{"room": "kitchen", "theta_deg": 0.0, "x": 10.05, "y": 2.5},
	}}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return []runlog.Event{
		{Kind: runlog.EventObservation, Time: now, Task: 1, Turn: 2, Tool: "observe", Observation: obs, Images: img},
		{Kind: runlog.EventToolResult, Time: now, Task: 1, Turn: 2, Tool: "navigate_to", CallID: "call_0_0",
			Args: map[string]any{"target": "table"}, Result: env},
	}
}

// BenchmarkRedactEvent measures the bus's one redaction step per event:
// nothing declared, secrets declared but absent (the usual case), and a
// secret present (the event is copied where it changes).
func BenchmarkRedactEvent(b *testing.B) {
	secrets := []string{"sk-live-0123456789abcdef", "tok-another-secret-env"}
	patterns := []*regexp.Regexp{regexp.MustCompile(`sk-[A-Za-z0-9]{20,}`), regexp.MustCompile(`password=\S+`)}
	for _, c := range []struct {
		name   string
		r      *redact.Redactor
		secret string
	}{
		{"none-declared", redact.New(nil, nil), ""},
		{"declared-absent", redact.New(secrets, patterns), ""},
		{"declared-present", redact.New(secrets, patterns), secrets[0]},
	} {
		evs := benchEvents(c.secret)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, ev := range evs {
					_ = redact.Value(c.r, ev)
				}
			}
		})
	}
}
