package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A tool that panics is answered with a failure envelope: the session and
// the stream survive, and the model decides again.
func TestPanickingToolIsAFailureEnvelope(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("gave up"))
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope { panic("driver fault") }
	evs := collect(f.harness(t).RunStream(t.Context(), "go"))
	if countDone(evs) != 1 || evs[len(evs)-1].Kind != runlog.EventDone {
		t.Fatalf("events %v: want exactly one done, last", kinds(evs))
	}
	if d := evs[len(evs)-1].Done; d.Reason != runlog.DoneFinal {
		t.Fatalf("done %+v, want final answer after a failed call", d)
	}
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Tool == "move" {
			if ev.Result.Success || !strings.Contains(ev.Result.Reason, "driver fault") {
				t.Fatalf("result %+v, want a failure naming the panic", ev.Result)
			}
			return
		}
	}
	t.Fatalf("no tool result for move in %v", kinds(evs))
}

// A policy whose pre chain panics fails closed: the call is not executed.
// One whose post chain panics yields a failure verdict. Neither crashes.
func TestPanickingPolicyFailsClosed(t *testing.T) {
	t.Run("pre", func(t *testing.T) {
		f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("ok"))
		f.policy.pre = func(*engine.CallContext) engine.PreResult { panic("rule engine bug") }
		evs := collect(f.harness(t).RunStream(t.Context(), "go"))
		if countDone(evs) != 1 || evs[len(evs)-1].Done.Reason != runlog.DoneFinal {
			t.Fatalf("events %v: want one done, final", kinds(evs))
		}
		if n := f.tool("move").calls.Load(); n != 0 {
			t.Fatalf("move ran %d times after its pre chain panicked", n)
		}
	})
	t.Run("post", func(t *testing.T) {
		f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("ok"))
		f.policy.post = func(*engine.CallContext, *runlog.Envelope) engine.PostResult { panic("judge bug") }
		evs := collect(f.harness(t).RunStream(t.Context(), "go"))
		if countDone(evs) != 1 || evs[len(evs)-1].Done.Reason != runlog.DoneFinal {
			t.Fatalf("events %v: want one done, final", kinds(evs))
		}
		for _, ev := range evs {
			if ev.Kind == runlog.EventToolResult && ev.Tool == "move" {
				if v := ev.Result.Verdict; v == nil || v.Status != "failure" {
					t.Fatalf("verdict %+v, want failure after the post chain panicked", v)
				}
				return
			}
		}
		t.Fatalf("no tool result for move")
	})
}

// panicStage panics in its Run.
type panicStage struct{}

func (panicStage) Name() string                            { return "boom" }
func (panicStage) Run(context.Context, *engine.Turn) error { panic("stage bug") }

// A stage that panics ends the task with exactly one done event (an error)
// before the turn's model call, so no tool call is left unanswered, and
// leaves the session usable.
func TestPanickingStageEndsWithOneDone(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("second task"))
	f.spec.Loop.Stages = []string{"task_notes", "observe", "boom"}
	opts := f.options(t)
	must(t, opts.Components.Add(engine.StageKind{Name: "boom", New: func(*schema.Spec) (engine.Stage, error) { return panicStage{}, nil }}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	evs := collect(h.RunStream(t.Context(), "go"))
	if countDone(evs) != 1 || evs[len(evs)-1].Kind != runlog.EventDone {
		t.Fatalf("events %v: want exactly one done, last", kinds(evs))
	}
	d := evs[len(evs)-1].Done
	if d.Reason != runlog.DoneError || !strings.Contains(d.Error, "stage bug") {
		t.Fatalf("done %+v, want an error naming the panic", d)
	}
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolCall || ev.Kind == runlog.EventToolResult {
			t.Fatalf("the panicking stage's turn reached a tool call: %v", kinds(evs))
		}
	}
	if _, err := h.Run(t.Context(), "next"); errors.Is(err, engine.ErrBusy) {
		t.Fatalf("session busy after a panicking stage: %v", err)
	}
}

// A panic in the consumer's own loop body is the consumer's: it propagates
// unchanged instead of being turned into a task error.
func TestConsumerPanicPropagates(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	h := f.harness(t)
	defer func() {
		if r := recover(); r != "consumer bug" {
			t.Fatalf("recovered %v, want the consumer's own panic", r)
		}
	}()
	for ev := range h.RunStream(t.Context(), "go") {
		if ev.Kind == runlog.EventModel {
			panic("consumer bug")
		}
	}
}

// A cancellation that arrives while the pre chain runs (a confirm hook
// waiting on a person) stops the call before it executes.
func TestCancelDuringPreHooksStopsTheCall(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	var cancelled bool
	f.policy.pre = func(cc *engine.CallContext) engine.PreResult {
		cancelled = true // the operator pressed stop while being asked
		return engine.PreResult{Allowed: true, Args: cc.Call.Args}
	}
	evs := collect(f.harness(t).RunStream(t.Context(), "go", engine.WithShouldCancel(func() bool { return cancelled })))
	if n := f.tool("move").calls.Load(); n != 0 {
		t.Fatalf("move ran %d times after a cancellation during its pre-hooks", n)
	}
	if countDone(evs) != 1 || evs[len(evs)-1].Done.Reason != runlog.DoneCancelled {
		t.Fatalf("events %v: want one done, cancelled", kinds(evs))
	}
}
