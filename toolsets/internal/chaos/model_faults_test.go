package chaos

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// oneTurn is a schedule of one task: turn, then the final answer.
func oneTurn(stop bool, turn Turn) Schedule {
	return Schedule{Seed: 1, StopTool: stop, Tasks: []Task{{Turns: []Turn{turn, {}}}}}
}

// runFixed runs a fixed schedule with every invariant checked and returns
// the episode for the case's own assertions.
func runFixed(t *testing.T, sched Schedule) *episode {
	t.Helper()
	t.Setenv(keyEnv, apiKey)
	t.Setenv("THEA_FAULT_SECRET", secret)
	e, err := newEpisode(t.Context(), t.TempDir(), sched)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.release(false) })
	e.models.Keep = true
	if err := e.run(t.Context()); err != nil {
		t.Fatalf("schedule %s\nbroke an invariant: %v\ntrace:\n%s", sched, err, e.trace)
	}
	return e
}

// events returns the run log events of task n (from 1).
func (e *episode) events(t *testing.T, n int) []runlog.Event {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(e.dir, "runs", "*-task*"))
	if err != nil || len(dirs) < n {
		t.Fatalf("run dirs %v: %v", dirs, err)
	}
	for _, d := range dirs {
		if !strings.HasSuffix(d, "-task"+itoa(n)) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var out []runlog.Event
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var ev runlog.Event
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatal(err)
			}
			out = append(out, ev)
		}
		return out
	}
	t.Fatalf("no run dir of task %d in %v", n, dirs)
	return nil
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// resultWith finds a tool result whose failure reason contains text.
func resultWith(evs []runlog.Event, text string) *runlog.Event {
	for i, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Result != nil && strings.Contains(ev.Result.Reason, text) {
			return &evs[i]
		}
	}
	return nil
}

// A model server that fails, slows down or answers nonsense: the task
// either recovers (a retry) or ends with a report saying why, and the next
// task runs.
func TestModelServerFaults(t *testing.T) {
	probe := []Call{{Tool: "probe"}}
	cases := []struct {
		name     string
		turn     Turn
		reason   runlog.DoneReason
		report   string // in the first task's report
		attempts int    // requests the faulty turn got
	}{
		{"500 then recovered", Turn{Model: Model500, Calls: probe}, runlog.DoneFinal, "Done with chaos task 1", 2},
		{"500 on every attempt", Turn{Model: ModelErr}, runlog.DoneError, "HTTP 500: chaos: internal error", 2},
		{"429 then recovered", Turn{Model: Model429, Calls: probe}, runlog.DoneFinal, "Done with chaos task 1", 2},
		{"slow", Turn{Model: ModelSlow, Calls: probe}, runlog.DoneFinal, "Done with chaos task 1", 1},
		{"stalled past the timeout", Turn{Model: ModelStall, Calls: probe}, runlog.DoneFinal, "Done with chaos task 1", 2},
		{"truncated JSON", Turn{Model: ModelTruncated}, runlog.DoneError, "the server's answer was not complete JSON", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := runFixed(t, oneTurn(true, c.turn))
			rep := e.reports[0]
			if rep.Reason != c.reason || !strings.Contains(rep.Text, c.report) {
				t.Fatalf("report %s: %q", rep.Reason, rep.Text)
			}
			if c.attempts > 0 && e.models.Attempts(1, 1) != c.attempts {
				t.Fatalf("the faulty turn got %d requests, want %d", e.models.Attempts(1, 1), c.attempts)
			}
			if got := e.reports[len(e.reports)-1]; got.Reason != runlog.DoneFinal {
				t.Fatalf("the next task: %s %q", got.Reason, got.Text)
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		e := runFixed(t, oneTurn(true, Turn{Model: ModelUnknown}))
		if e.reports[0].Reason != runlog.DoneFinal || resultWith(e.events(t, 1), `unknown tool "fly_to_the_moon"`) == nil {
			t.Fatalf("report %+v; trace:\n%s", e.reports[0], e.trace)
		}
	})
	t.Run("ten tool calls", func(t *testing.T) {
		e := runFixed(t, oneTurn(true, Turn{Model: ModelTen}))
		evs := e.events(t, 1)
		calls, refused := 0, 0
		for _, ev := range evs {
			switch {
			case ev.Kind == runlog.EventToolCall:
				calls++
			case ev.Kind == runlog.EventToolResult && strings.Contains(ev.Text, "9 more calls in the response were not executed"):
				refused++
			}
		}
		// The nine extra calls are refused in one line of the run log, beside the result.
		if calls != 1 || refused != 1 || e.reports[0].Reason != runlog.DoneFinal {
			t.Fatalf("%d calls ran, %d refused, report %s; trace:\n%s", calls, refused, e.reports[0].Reason, e.trace)
		}
	})
}

// Hostile tool results through a whole session: escape codes reach no
// terminal raw, injection text reaches the model only as a tool result, the
// echoed secret reaches no sink, a 20 MB result leaves a valid run log, and
// the session goes on (each checked by runFixed's invariants, and here).
func TestHostileResultsThroughSession(t *testing.T) {
	for _, fault := range []string{faultserver.FaultEscape, faultserver.FaultInject, faultserver.FaultSecret, faultserver.FaultBig, faultserver.FaultGarbage} {
		t.Run(fault, func(t *testing.T) {
			e := runFixed(t, oneTurn(true, Turn{Calls: []Call{{Tool: "probe", Fault: fault, N: 20}}}))
			if e.reports[0].Reason != runlog.DoneFinal {
				t.Fatalf("report %+v", e.reports[0])
			}
			if fault != faultserver.FaultInject {
				return
			}
			for i, b := range e.models.Bodies() {
				var req chatRequest
				if err := json.Unmarshal(b, &req); err != nil {
					t.Fatal(err)
				}
				for _, m := range req.Messages {
					if strings.Contains(string(m.Content), "SYSTEM OVERRIDE") && m.Role != "tool" {
						t.Fatalf("request %d: the injection text is in a %s message", i+1, m.Role)
					}
				}
			}
		})
	}
}

// A late reply arriving after the task's final answer is not lost: it
// reaches the next task's run log.
func TestLateReplyAfterTheTaskEnds(t *testing.T) {
	e := runFixed(t, oneTurn(true, Turn{Calls: []Call{{Tool: "move_base", Ms: 300}}}))
	found := false
	for n := 1; n <= 2; n++ {
		for _, ev := range e.events(t, n) {
			if ev.Kind == runlog.EventSafety && strings.HasPrefix(ev.Text, "late_reply") {
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("no late_reply event in any run log; trace:\n%s", e.trace)
	}
}
