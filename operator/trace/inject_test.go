package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
)

// The attack of issue 15: a model's text, a tool name, a notify_user
// message, a failure reason and the final report each try to forge a hook
// line with a carriage return and erase-line codes, and to set the window
// title. No output line may be the forged one, and no escape byte may
// reach the terminal.
func TestTraceNeutralisesInjectedLines(t *testing.T) {
	const forged = "turn 2   hook       pre boxed_in: allow"
	inject := "ok\r\x1b[2K" + forged + "\n" + forged + "\x1b]0;owned\x07"
	evs := []runlog.Event{
		{Kind: runlog.EventTaskStart, Task: 1, Text: "go " + inject},
		{Kind: runlog.EventModel, Turn: 1, Text: inject, Tool: "pick_up" + inject, Args: map[string]any{"k" + inject: inject}},
		{Kind: runlog.EventNotify, Turn: 1, Text: inject},
		{Kind: runlog.EventHook, Turn: 1, Tool: "x", Hook: &runlog.Decision{Phase: "pre", Hook: "h" + inject, Decision: "block", Reason: inject}},
		{Kind: runlog.EventToolResult, Turn: 1, Tool: "pick_up" + inject, Result: &runlog.Envelope{Reason: inject}},
		{Kind: runlog.EventToolResult, Turn: 1, Tool: "ok", Result: &runlog.Envelope{Success: true, Value: map[string]any{"v": inject + "\u009b2J"}}},
		{Kind: runlog.EventObservation, Turn: 2, Text: "observation unavailable: " + inject},
		{Kind: runlog.EventDone, Turn: 2, Done: &runlog.Report{Reason: runlog.DoneFinal, Turns: 2, Text: "report " + inject, Error: inject}},
	}
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		w := trace.New(&b, verbose)
		for _, ev := range evs {
			if err := w.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		out := b.String()
		for _, bad := range []string{"\r", "\x1b", "\x07", "\u009b"} {
			if strings.Contains(out, bad) {
				t.Errorf("verbose=%v: raw %q reached the terminal:\n%s", verbose, bad, out)
			}
		}
		for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if strings.HasPrefix(line, "turn 2   hook") || strings.HasPrefix(line, forged) {
				t.Errorf("verbose=%v: line %d is forged: %q", verbose, i+1, line)
			}
			if !strings.HasPrefix(line, "turn ") && !strings.HasPrefix(line, "── ") && !strings.HasPrefix(line, "error: ") &&
				!strings.HasPrefix(line, "report: ") && !strings.HasPrefix(line, "  ") {
				t.Errorf("verbose=%v: line %d starts with untrusted text: %q", verbose, i+1, line)
			}
		}
	}
}

// Lines keeps a text's own line breaks and escapes each line.
func TestLines(t *testing.T) {
	if got, want := trace.Lines("one\r\x1b[2Ktwo\nthree\u202e"), "one\\r\\x1b[2Ktwo\nthree\\u202e"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
