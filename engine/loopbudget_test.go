package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// loopTask runs resps (then a final answer) with the loop detector at 3 and
// failure budgets too large to end the task first.
func loopTask(t *testing.T, setup func(f *fixture), resps ...model.Response) runlog.Report {
	t.Helper()
	f := newFixture(t, append(resps, toolResp("done"))...)
	f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 10, Total: 10, Format: 10}
	f.spec.Safety.LoopDetection = schema.LoopDetection{Enabled: true, Repeats: 3}
	setup(f)
	rep, err := f.harness(t).Run(t.Context(), "go")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rep
}

func times(n int, r model.Response) []model.Response {
	rs := make([]model.Response, n)
	for i := range rs {
		rs[i] = r
	}
	return rs
}

// observeAt makes the fixture's observation report the robot at *x, with an
// age and a detector score that change every time (neither is a fact).
func observeAt(f *fixture, x *float64) {
	n := 0.0
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		n++
		return runlog.Envelope{Success: true, Value: map[string]any{
			"pose":       map[string]any{"x": *x, "y": 0.0, "theta_deg": 0.0},
			"age_s":      map[string]any{"pose": 0.1 * n},
			"detections": []any{map[string]any{"name": "mug", "visible": true, "score": 0.5 + n/100}},
		}}
	}
}

// Three identical calls that each move the robot (the observation changes)
// are progress, not a loop: a 3 m back-up under a 1 m limit is three
// identical 1 m moves.
func TestLoopRepeatedProgressingCallsAreNotALoop(t *testing.T) {
	rep := loopTask(t, func(f *fixture) {
		x := 0.0
		observeAt(f, &x)
		f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
			x -= 1
			return runlog.Envelope{Success: true, Value: map[string]any{"moved_m": 1.0}}
		}
	}, times(4, toolResp("", call("move", `{"distance_m":-1}`)))...)
	if rep.Reason != runlog.DoneFinal {
		t.Fatalf("Run = %+v; want the final answer after four progressing moves", rep)
	}
}

// Three identical calls failing the same way are a loop, whatever the
// observation does meanwhile.
func TestLoopSameFailureRepeatedIsALoop(t *testing.T) {
	rep := loopTask(t, func(f *fixture) {
		x := 0.0
		observeAt(f, &x)
		f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
			x += 0.01 // the observation changes; the failure does not
			return runlog.Failure("gripper jammed")
		}
	}, times(5, toolResp("", call("move", `{"d":1}`)))...)
	if rep.Reason != runlog.DoneLoopDetected || rep.Turns != 3 || !strings.Contains(rep.Text, "failing the same way") {
		t.Fatalf("Run = %+v; want loop_detected after 3 turns, failing the same way", rep)
	}
}

// Three identical successes with the same facts observed (only ages and
// detector scores differ) are a loop.
func TestLoopUnchangedSuccessesAreALoop(t *testing.T) {
	rep := loopTask(t, func(f *fixture) {
		x := 2.0
		observeAt(f, &x)
	}, times(5, toolResp("", call("move", `{"d":1}`)))...)
	if rep.Reason != runlog.DoneLoopDetected || rep.Turns != 3 || !strings.Contains(rep.Text, "no change in the observation") {
		t.Fatalf("Run = %+v; want loop_detected after 3 turns, no change in the observation", rep)
	}
}

// Calls that fail differently are not a loop.
func TestLoopDifferentFailuresAreNotALoop(t *testing.T) {
	rep := loopTask(t, func(f *fixture) {
		n := 0
		f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
			n++
			return runlog.Failure("attempt " + itoa(n) + " slipped")
		}
	}, times(4, toolResp("", call("move", `{"d":1}`)))...)
	if rep.Reason != runlog.DoneFinal {
		t.Fatalf("Run = %+v; want the final answer", rep)
	}
}

// formatMistakes are the wire-format mistakes a real model makes: an
// unknown tool, arguments that are not JSON, and arguments of the wrong
// type for the tool's inputSchema.
func formatMistakes() []model.Response {
	return []model.Response{
		toolResp("", call("teleport", `{}`)),
		toolResp("", call("grab", `{"object_name": "mug"`)),
		toolResp("", call("grab", `{"object_name": 5}`)),
	}
}

func formatFixture(t *testing.T, format int, resps ...model.Response) (*fixture, runlog.Report, []runlog.Event) {
	t.Helper()
	f := newFixture(t, resps...)
	f.addTool("core", "grab", nil).def.InputSchema = json.RawMessage(`{"type":"object","properties":{"object_name":{"type":"string"}},"required":["object_name"]}`)
	f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 1, Total: 1, Format: format}
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "go"))
	done := evs[len(evs)-1]
	if done.Kind != runlog.EventDone || done.Done == nil {
		t.Fatalf("last event %+v, want done", done)
	}
	return f, *done.Done, evs
}

// N wire-format mistakes exhaust failure_budget.format, and the end says
// so; each result tells the model which budget it counts against.
func TestFormatMistakesExhaustTheirOwnBudget(t *testing.T) {
	f, rep, evs := formatFixture(t, 3, formatMistakes()...)
	if rep.Reason != runlog.DoneFailureBudget || rep.Turns != 3 || !strings.Contains(rep.Text, "failure_budget.format 3") {
		t.Fatalf("Run = %+v; want failure_budget after 3 turns naming failure_budget.format", rep)
	}
	if n := f.tool("grab").calls.Load(); n != 0 {
		t.Errorf("grab ran %d times; malformed calls never run", n)
	}
	results := 0
	for _, ev := range evs {
		if ev.Kind != runlog.EventToolResult {
			continue
		}
		results++
		if !strings.Contains(ev.Result.Reason, "counts against the budget for malformed calls") {
			t.Errorf("result %q does not say which budget it counts against", ev.Result.Reason)
		}
	}
	if results != 3 {
		t.Errorf("%d tool results, want 3", results)
	}
}

// Wire-format mistakes leave a failure budget of 1 untouched: the task goes
// on to a successful call and its final answer.
func TestFormatMistakesLeaveTheFailureBudget(t *testing.T) {
	resps := append(formatMistakes(), toolResp("", call("grab", `{"object_name":"mug"}`)), toolResp("done"))
	f, rep, _ := formatFixture(t, 5, resps...)
	if rep.Reason != runlog.DoneFinal || rep.Turns != 5 {
		t.Fatalf("Run = %+v; want the final answer after 5 turns", rep)
	}
	if n := f.tool("grab").calls.Load(); n != 1 {
		t.Errorf("grab ran %d times, want 1", n)
	}
}
