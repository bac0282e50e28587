package trace_test

import (
	"io"
	"testing"

	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

var benchTurn = []runlog.Event{
	{Kind: runlog.EventObservation, Turn: 3, Observation: &world.Observation{Clearance: world.Clearance{"front": 1}, Pose: &world.Pose{Room: "kitchen"},
		Detections: []world.Detection{{Name: "mug", Visible: true}}}},
	{Kind: runlog.EventContext, Turn: 3, Tokens: &runlog.TokenCounts{Total: 4000}},
	{Kind: runlog.EventModel, Turn: 3, Text: "Closer now.", Tool: "move_base", Args: map[string]any{"direction": "forward", "distance_m": 1}},
	{Kind: runlog.EventHook, Turn: 3, Hook: &runlog.Decision{Phase: "pre", Hook: "clamp_translation", Decision: runlog.DecisionClamp,
		Before: map[string]any{"distance_m": 1}, After: map[string]any{"distance_m": 0.5}, Reason: "clamped"}},
	{Kind: runlog.EventToolResult, Turn: 3, Tool: "move_base", Result: &runlog.Envelope{Success: true, Value: map[string]any{"moved_m": 0.5}}},
}

// One turn's events through the live view and through the plain trace.
func BenchmarkLiveTurn(b *testing.B) {
	l := trace.NewLive(io.Discard, false)
	for b.Loop() {
		for _, ev := range benchTurn {
			_ = l.Write(ev)
		}
	}
}

func BenchmarkPlainTurn(b *testing.B) {
	w := trace.New(io.Discard, false)
	for b.Loop() {
		for _, ev := range benchTurn {
			_ = w.Write(ev)
		}
	}
}
