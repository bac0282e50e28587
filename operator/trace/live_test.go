package trace_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// ownCodes are the only control sequences the live view may print.
var ownCodes = strings.NewReplacer("\r\x1b[2K", "", "\x1b[1m", "", "\x1b[2m", "", "\x1b[31m", "", "\x1b[32m", "", "\x1b[33m", "", "\x1b[36m", "", "\x1b[0m", "")

func liveRender(t *testing.T, evs []runlog.Event, ticks ...time.Time) string {
	t.Helper()
	var b bytes.Buffer
	l := trace.NewLive(&b, false)
	for _, ev := range evs {
		if err := l.Write(ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind == runlog.EventContext {
			for _, now := range ticks {
				if err := l.Tick(now); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The live view shows the turn, tool and arguments, hook decisions (blocked,
// clamped, confirmed), evaluator verdicts, compaction, a spinner with the
// elapsed time while the model thinks, and the tokens used; the spinner's
// line is erased before the next line.
func TestLiveShowsTheTurn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	evs := []runlog.Event{
		{Kind: runlog.EventTaskStart, Task: 1, Time: t0, Text: "fetch the mug"},
		{Kind: runlog.EventObservation, Turn: 1, Observation: &world.Observation{Pose: &world.Pose{Room: "kitchen"}}},
		{Kind: runlog.EventContext, Turn: 1, Time: t0, Tokens: &runlog.TokenCounts{Total: 12345}},
		{Kind: runlog.EventModel, Turn: 1, Time: t0.Add(3 * time.Second), Text: "closer", Tool: "move_base", Args: map[string]any{"distance_m": 1},
			Usage: &model.Usage{InputTokens: 1200, OutputTokens: 30}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: "clamp_translation", Decision: runlog.DecisionClamp,
			Before: map[string]any{"distance_m": 1}, After: map[string]any{"distance_m": 0.5}}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: "speed", Decision: runlog.DecisionClamp,
			Before: map[string]any{"v": 1}, After: map[string]any{"v": 1}, Reason: "v within bounds"}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: "ask_first", Decision: runlog.DecisionConfirm, Reason: "the user confirmed"}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: "far", Decision: runlog.DecisionSkip}},
		{Kind: runlog.EventEvaluation, Turn: 1, Tool: "move_base", Verdict: &world.Verdict{Status: "failure", Source: "model", Reason: "not there"}},
		{Kind: runlog.EventToolResult, Turn: 1, Tool: "move_base", Result: &runlog.Envelope{Success: true, Value: map[string]any{"moved_m": 0.5}}},
		{Kind: runlog.EventHook, Turn: 2, Hook: &runlog.Decision{Phase: "pre", Hook: "boxed_in", Decision: runlog.DecisionBlock, Reason: "no room"}},
		{Kind: runlog.EventCompaction, Turn: 2, Compaction: &runlog.CompactionInfo{OK: true, MessagesBefore: 40, MessagesAfter: 12, TokensBefore: 150000, TokensAfter: 20000, Rounds: 1}},
		{Kind: runlog.EventModel, Turn: 2, Text: "done", Usage: &model.Usage{InputTokens: 800, OutputTokens: 20}},
		{Kind: runlog.EventDone, Turn: 2, Time: t0.Add(5 * time.Second), Done: &runlog.Report{Reason: runlog.DoneFinal, Turns: 2, Text: "done"}},
	}
	out := liveRender(t, evs, t0.Add(1500*time.Millisecond))
	plain := ownCodes.Replace(out)
	for _, want := range []string{
		"── task 1 fetch the mug",
		"  1 │ observe in kitchen",
		"⠋ turn 1 · thinking 0.0s · context ~12k tokens",
		"⠙ turn 1 · thinking 1.5s · context ~12k tokens",
		`  1 │ model "closer"`,
		"  1 │ tokens 1.2k in / 30 out",
		`  1 │ → move_base {"distance_m":1}`,
		`  1 │ hook clamped by clamp_translation {"distance_m":1} → {"distance_m":0.5}`,
		"  1 │ hook speed: not clamped — v within bounds",
		"  1 │ hook confirmed by ask_first — the user confirmed",
		`  1 │ ✓ move_base {"moved_m":0.5}` + "\n  1 │ verdict ✗ move_base failure (by model) — not there",
		"  2 │ hook ⛔ blocked by boxed_in — no room",
		"  2 │ compact 40 → 12 messages, ~150k → ~20k tokens in 1 round(s)",
		"── done: final_answer after 2 turn(s) · 5.0s · tokens 2.0k in / 50 out",
		"report: done",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("live view lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "far") {
		t.Errorf("a skipped hook shows without verbose:\n%s", plain)
	}
	// Every spinner frame is erased before the next line.
	if i := strings.Index(out, "thinking 1.5s"); i < 0 || !strings.HasPrefix(out[i+len("thinking 1.5s"):], " · context ~12k tokens\x1b[0m\r\x1b[2K") {
		t.Errorf("the spinner line is not erased before the next line: %q", out)
	}
}

// Injected control sequences never reach the terminal through the live
// view: the only codes in its output are its own.
func TestLiveNeutralisesInjectedLines(t *testing.T) {
	inject := "ok\r\x1b[2Kturn 2 forged\n\x1b]0;owned\x07\u009b2J\u202e"
	evs := []runlog.Event{
		{Kind: runlog.EventTaskStart, Task: 1, Text: inject},
		{Kind: runlog.EventObservation, Turn: 1, Text: inject},
		{Kind: runlog.EventContext, Turn: 1},
		{Kind: runlog.EventModel, Turn: 1, Text: inject, Tool: "x" + inject, Args: map[string]any{inject: inject}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: inject, Decision: runlog.DecisionBlock, Reason: inject}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: inject, Decision: runlog.DecisionClamp, Before: map[string]any{"a": inject}}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "post", Hook: inject, Decision: runlog.DecisionKind(inject), Reason: inject}},
		{Kind: runlog.EventEvaluation, Turn: 1, Tool: inject, Verdict: &world.Verdict{Status: world.VerdictStatus(inject), Source: inject, Reason: inject}},
		{Kind: runlog.EventToolResult, Turn: 1, Tool: inject, Result: &runlog.Envelope{Reason: inject}},
		{Kind: runlog.EventNotify, Turn: 1, Text: inject},
		{Kind: runlog.EventCompaction, Turn: 1, Compaction: &runlog.CompactionInfo{Error: inject}},
		{Kind: runlog.EventDone, Turn: 1, Done: &runlog.Report{Reason: runlog.DoneReason(inject), Text: inject, Error: inject, RunDir: inject}},
	}
	plain := ownCodes.Replace(liveRender(t, evs))
	for _, bad := range []string{"\r", "\x1b", "\x07", "\u009b", "\u202e"} {
		if strings.Contains(plain, bad) {
			t.Errorf("raw %q reached the terminal:\n%q", bad, plain)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
		if strings.HasPrefix(line, "turn 2") {
			t.Errorf("forged line: %q", line)
		}
	}
}
