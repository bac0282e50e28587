package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A pause during a call ends it (its context) and the task waits; after the
// hand back the request carries the operator's note, the Brief marks every
// fact unconfirmed until an observation shows it again (the mug the
// operator moved away stays unconfirmed; what the fresh observation reports
// is confirmed), and the call the pause ended is not a failure.
func TestHandBackMarksTheBriefAndTellsTheModel(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("wait", `{}`)), // turn 1: paused during the call
		toolResp("done"),
	)
	// One failure ends the task: the call the pause ended must not count.
	f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 1, Total: 1, Format: 5}
	observe := f.tool("observe")
	observe.fn = func(context.Context, map[string]any) runlog.Envelope {
		if observe.calls.Load() == 1 { // the mug on the table
			return runlog.Envelope{Success: true, Value: map[string]any{"held": "",
				"detections": []any{map[string]any{"name": "mug", "class": "cup", "relation": "on", "target": "table", "room": "kitchen"}}}}
		}
		// After the hand back: the operator took the mug away; the robot
		// holds nothing.
		return runlog.Envelope{Success: true, Value: map[string]any{"held": "", "summary": "an empty kitchen"}}
	}
	var h *engine.Harness
	paused := make(chan struct{})
	f.addTool("core", "wait", func(ctx context.Context, _ map[string]any) runlog.Envelope {
		if _, err := h.Pause("test operator"); err != nil {
			return runlog.Failure(err.Error())
		}
		close(paused)
		<-ctx.Done() // the pause ends the call
		return runlog.Failure("wait was cancelled")
	})
	h = f.harness(t)
	evs := make(chan []runlog.Event, 1)
	go func() { evs <- collect(h.RunStream(t.Context(), "tidy the kitchen")) }()
	<-paused
	if _, err := h.HandBack("test operator", "I put the mug in the sink."); err != nil {
		t.Fatal(err)
	}
	var brief string
	var result *runlog.Envelope
	for _, ev := range <-evs {
		switch {
		case ev.Kind == runlog.EventScene && ev.Tool == "" && ev.Turn == 2:
			brief = ev.Text
		case ev.Kind == runlog.EventToolResult && ev.Tool == "wait":
			result = ev.Result
		case ev.Kind == runlog.EventDone && ev.Done.Reason != runlog.DoneFinal:
			t.Fatalf("done: %+v (the paused call counted as a failure?)", ev.Done)
		}
	}
	if result == nil || !strings.Contains(result.Reason, "an operator paused the agent during this call") {
		t.Errorf("the paused call's result: %+v", result)
	}
	if !strings.Contains(brief, "obj:mug (cup): on place:table, room kitchen [observe t1] (unconfirmed since turn 2)") {
		t.Errorf("the Brief after the hand back does not mark the mug unconfirmed:\n%s", brief)
	}
	if !strings.Contains(brief, "robot: holding nothing [observe t2]") || strings.Contains(brief, "robot: holding nothing [observe t2] (unconfirmed") {
		t.Errorf("the Brief after the hand back: the robot's hand, observed again, should be confirmed:\n%s", brief)
	}
	reqs := f.decide.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	var text strings.Builder
	for _, m := range reqs[1].Messages {
		for _, p := range m.Parts {
			text.WriteString(p.Text)
		}
	}
	for _, want := range []string{"Operator takeover: an operator (test operator) paused you", "Your call wait was stopped",
		"The operator's note: I put the mug in the sink.", "(unconfirmed since turn 2)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the request after the hand back lacks %q", want)
		}
	}
}
