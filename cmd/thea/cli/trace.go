package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/thea-harness/thea/engine"
)

// traceWriter prints a task's events as a readable live trace: one line per
// turn step, so an operator can follow turns, calls, hook and evaluator
// verdicts as they happen.
type traceWriter struct {
	w       io.Writer
	verbose bool
	// after holds lines of post-execution work (verdicts, notes) until the
	// call's result is printed, so the trace reads call → result → verdict.
	after []string
}

func (t *traceWriter) event(ev engine.Event) {
	p := func(kind, format string, a ...any) {
		fmt.Fprintf(t.w, "turn %-3d %-10s %s\n", ev.Turn, kind, fmt.Sprintf(format, a...))
	}
	later := func(kind, format string, a ...any) {
		t.after = append(t.after, fmt.Sprintf("turn %-3d %-10s %s\n", ev.Turn, kind, fmt.Sprintf(format, a...)))
	}
	switch ev.Kind {
	case engine.EventTaskStart:
		fmt.Fprintf(t.w, "── task %d: %s\n", ev.Task, ev.Text)
	case engine.EventObservation:
		if ev.Observation != nil {
			p("observe", "%s", observationLine(ev))
		} else if ev.Text != "" {
			p("observe", "%s", ev.Text)
		}
	case engine.EventModel:
		line := ""
		if s := oneLine(ev.Text, 160); s != "" {
			line = fmt.Sprintf("%q", s)
		}
		if ev.Tool != "" {
			if line != "" {
				line += " "
			}
			line += "→ " + ev.Tool + " " + compactJSON(ev.Args, 160)
		}
		if line == "" {
			line = "(no text, no tool call)"
		}
		p("model", "%s", line)
	case engine.EventHook:
		if ev.Hook == nil || ((ev.Hook.Decision == engine.DecisionSkip || ev.Hook.Decision == engine.DecisionEvaluate) && !t.verbose) {
			return // the evaluation line reports an evaluate hook's outcome
		}
		h := ev.Hook
		line := fmt.Sprintf("%s %s: %s", h.Phase, h.Hook, h.Decision)
		if h.Before != nil || h.After != nil {
			line += fmt.Sprintf(" %s → %s", compactJSON(h.Before, 80), compactJSON(h.After, 80))
		}
		if h.Reason != "" {
			line += " — " + oneLine(h.Reason, 160)
		}
		if h.Phase == "post" {
			later("hook", "%s", line)
		} else {
			p("hook", "%s", line)
		}
	case engine.EventToolCall:
		if t.verbose {
			p("call", "%s %s", ev.Tool, compactJSON(ev.Args, 160))
		}
	case engine.EventToolResult:
		if ev.Result == nil {
			return
		}
		if ev.Result.Success {
			p("result", "%s ✓ %s", ev.Tool, compactJSON(ev.Result.Value, 140))
		} else {
			p("result", "%s ✗ %s", ev.Tool, oneLine(ev.Result.Reason, 160))
		}
		for _, l := range t.after {
			fmt.Fprint(t.w, l)
		}
		t.after = t.after[:0]
	case engine.EventEvaluation:
		if ev.Verdict != nil {
			v := ev.Verdict
			line := fmt.Sprintf("%s: %s (by %s)", ev.Tool, v.Status, v.Source)
			if v.Reason != "" {
				line += " — " + oneLine(v.Reason, 160)
			}
			later("verdict", "%s", line)
		}
	case engine.EventCompaction:
		if c := ev.Compaction; c != nil {
			if c.OK {
				p("compact", "%d → %d messages, ~%d → ~%d tokens in %d round(s)", c.MessagesBefore, c.MessagesAfter, c.TokensBefore, c.TokensAfter, c.Rounds)
			} else {
				p("compact", "failed, context unchanged: %s", c.Error)
			}
		}
	case engine.EventNotify:
		p("notify", "%s", oneLine(ev.Text, 200))
	case engine.EventQuestion:
		p("question", "%s", oneLine(ev.Text, 200))
	case engine.EventReplan:
		p("replan", "%s", oneLine(ev.Text, 200))
	case engine.EventCancel:
		p("cancel", "%s", oneLine(ev.Text, 200))
	case engine.EventMemory:
		p("memory", "%s", oneLine(ev.Text, 200))
	case engine.EventContext:
		if t.verbose && ev.Tokens != nil {
			p("context", "~%d tokens (resident %d, refreshed %d, accumulated %d)", ev.Tokens.Total, ev.Tokens.Resident, ev.Tokens.Refreshed, ev.Tokens.Accumulated)
		}
	case engine.EventDone:
		if d := ev.Done; d != nil {
			fmt.Fprintf(t.w, "── done: %s after %d turn(s)\n", d.Reason, d.Turns)
			if d.Error != "" {
				fmt.Fprintf(t.w, "error: %s\n", d.Error)
			}
			fmt.Fprintf(t.w, "report: %s\n", strings.TrimSpace(d.Text))
			if d.RunDir != "" {
				fmt.Fprintf(t.w, "run log: %s\n", d.RunDir)
			}
		}
	}
}

func observationLine(ev engine.Event) string {
	o := ev.Observation
	var parts []string
	if c := o.Clearance; c != nil {
		parts = append(parts, fmt.Sprintf("clearance F %.2f B %.2f L %.2f R %.2f", c.Front, c.Back, c.Left, c.Right))
	}
	if o.Pose != nil && o.Pose.Room != "" {
		parts = append(parts, "in "+o.Pose.Room)
	}
	held := o.Held
	if held == "" {
		held = "nothing"
	}
	parts = append(parts, "holding "+held)
	var seen []string
	for _, d := range o.Detections {
		if d.Visible {
			seen = append(seen, d.Name)
		}
	}
	sort.Strings(seen)
	seen = slices.Compact(seen) // one object seen by several cameras
	if len(seen) > 0 {
		parts = append(parts, "sees "+strings.Join(seen, ", "))
	}
	if n := len(ev.Images); n > 0 {
		parts = append(parts, fmt.Sprintf("%d image(s)", n))
	}
	return strings.Join(parts, " · ")
}

func compactJSON(v any, limit int) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return oneLine(string(b), limit)
}

// oneLine folds whitespace and bounds a string, keeping its start.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}
