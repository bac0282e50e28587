package engine_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// An event a toolset emits while no task runs (a motion's late reply after
// the final answer) reaches the next task's stream, not the floor; past the
// bound the surplus is counted in one event.
func TestEventsBetweenTasksReachTheNextTask(t *testing.T) {
	f := newFixture(t, model.Response{Text: "first done"}, model.Response{Text: "second done"})
	h := f.harness(t)
	if _, err := h.Run(t.Context(), "one"); err != nil {
		t.Fatal(err)
	}
	f.stream.Emit(runlog.Event{Kind: runlog.EventSafety, Tool: "move", Text: "late_reply: move"})
	for range 300 {
		f.stream.Emit(runlog.Event{Kind: runlog.EventSafety, Text: "backend_stdout_garbage: x"})
	}
	evs := collect(h.RunStream(t.Context(), "two"))
	late, garbage, counted := 0, 0, false
	for _, ev := range evs {
		switch {
		case ev.Kind == runlog.EventSafety && ev.Text == "late_reply: move" && ev.Task == 2:
			late++
		case ev.Kind == runlog.EventSafety:
			garbage++
		case ev.Kind == runlog.EventSinkError && strings.Contains(ev.Text, "45 more events emitted between tasks"):
			counted = true
		}
	}
	if late != 1 || garbage != 255 || !counted || countDone(evs) != 1 {
		t.Fatalf("late %d, garbage %d, surplus counted %v, done %d: %v", late, garbage, counted, countDone(evs), kinds(evs))
	}
}

// A preview between tasks (an MCP client's observe) leaves the events kept
// between tasks to the next task: a late reply still reaches its run log.
func TestPreviewLeavesEventsBetweenTasks(t *testing.T) {
	f := newFixture(t, model.Response{Text: "first done"}, model.Response{Text: "second done"})
	h := f.harness(t)
	if _, err := h.Run(t.Context(), "one"); err != nil {
		t.Fatal(err)
	}
	f.stream.Emit(runlog.Event{Kind: runlog.EventSafety, Tool: "move", Text: "late_reply: move"})
	if _, err := h.Preview(t.Context(), "look"); err != nil {
		t.Fatal(err)
	}
	late := 0
	for _, ev := range collect(h.RunStream(t.Context(), "two")) {
		if ev.Kind == runlog.EventSafety && ev.Text == "late_reply: move" {
			late++
		}
	}
	if late != 1 {
		t.Fatalf("the late reply reached the next task %d times, want once", late)
	}
}
