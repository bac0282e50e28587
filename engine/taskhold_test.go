package engine_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// A hold keeps the task's done back: a stop path that reports only after the
// model's final answer still reports in the task that started it, before
// done, and the event is not delivered twice.
func TestHoldKeepsDoneForTheStopPath(t *testing.T) {
	f := newFixture(t, toolResp("", call("drive", `{}`)), toolResp("stopped"))
	final := make(chan struct{})
	f.addTool("core", "drive", func(context.Context, map[string]any) runlog.Envelope {
		release := f.stream.Hold("the stop path of drive", testtime.Scale(10*time.Second))
		go func() {
			<-final // the task has its final answer and would end now
			f.stream.Emit(runlog.Event{Kind: runlog.EventSafety, Safety: "stop", Tool: "drive", Text: "stop: drive"})
			release()
			release() // twice is harmless
		}()
		return runlog.Failure("drive was cancelled")
	})
	h := f.harness(t)
	var evs []runlog.Event
	for ev := range h.RunStream(t.Context(), "drive") {
		evs = append(evs, ev)
		if ev.Kind == runlog.EventModel && ev.Text == "stopped" {
			close(final)
		}
	}
	ks := kinds(evs)
	stop := slices.IndexFunc(evs, func(ev runlog.Event) bool { return ev.Kind == runlog.EventSafety })
	if stop < 0 || ks[len(ks)-1] != runlog.EventDone || evs[stop].Task != 1 || countDone(evs) != 1 {
		t.Fatalf("the stop event is not the task's, before done: %v", ks)
	}
	next := collect(h.RunStream(t.Context(), "again"))
	if slices.ContainsFunc(next, func(ev runlog.Event) bool { return ev.Kind == runlog.EventSafety }) {
		t.Fatalf("the stop event was delivered again to the next task: %v", kinds(next))
	}
}

// A hold never released ends at its bound: the task says so in a
// stop_pending event and ends; what the stop path reports later reaches the
// next task.
func TestHoldPastItsBound(t *testing.T) {
	f := newFixture(t, toolResp("", call("drive", `{}`)), toolResp("stopped"), toolResp("next"))
	var release func()
	f.addTool("core", "drive", func(context.Context, map[string]any) runlog.Envelope {
		release = f.stream.Hold("the stop path of drive", time.Millisecond)
		return runlog.Failure("drive was cancelled")
	})
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "drive"))
	i := slices.IndexFunc(evs, func(ev runlog.Event) bool { return ev.Safety == runlog.SafetyStopPending })
	if i < 0 || i != len(evs)-2 || !strings.Contains(evs[i].Text, "the stop path of drive had not ended within 1ms") {
		t.Fatalf("no stop_pending event just before done: %v", kinds(evs))
	}
	f.stream.Emit(runlog.Event{Kind: runlog.EventSafety, Safety: "backend_killed", Text: "backend_killed: drive"})
	release()
	next := collect(h.RunStream(t.Context(), "again"))
	if !slices.ContainsFunc(next, func(ev runlog.Event) bool { return ev.Safety == "backend_killed" && ev.Task == 2 }) {
		t.Fatalf("the late kill did not reach the next task: %v", kinds(next))
	}
}

// Without a running task a hold holds nothing.
func TestHoldWithoutTask(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	h := f.harness(t)
	if _, err := h.Run(t.Context(), "one"); err != nil {
		t.Fatal(err)
	}
	f.stream.Hold("nothing", time.Hour)()
}
