package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// Writer prints a task's events as a readable live trace: one line per turn
// step, so an operator can follow turns, calls, hook decisions and
// evaluator verdicts as they happen. It is an engine.Sink; one Writer may
// serve the tasks of a session one after another. Every string that came
// from a model, a back-end, the world or the operator passes Escape.
type Writer struct {
	w       io.Writer
	verbose bool
	err     error // the first write error
	// after holds lines of post-execution work (verdicts, notes) until the
	// call's result is printed, so the trace reads call → result → verdict.
	after []string
}

var _ engine.Sink = (*Writer)(nil)

// New returns a Writer printing to w; verbose adds context sizes, skipped
// and evaluate hooks, each call before it runs, and each retried model
// call attempt.
func New(w io.Writer, verbose bool) *Writer {
	return &Writer{w: w, verbose: verbose}
}

// Write prints one event; it returns the first error writing to w.
func (t *Writer) Write(ev runlog.Event) error {
	switch ev.Kind {
	case runlog.EventTaskStart:
		t.printf("── task %d: %s\n", ev.Task, termesc.Escape(ev.Text))
	case runlog.EventObservation:
		t.observation(ev)
	case runlog.EventModel:
		t.model(ev)
	case runlog.EventHook:
		t.hook(ev)
	case runlog.EventToolCall:
		if t.verbose {
			t.line(ev, "call", termesc.Escape(ev.Tool)+" "+compactJSON(ev.Args, 160))
		}
	case runlog.EventToolResult:
		t.result(ev)
	case runlog.EventEvaluation:
		t.verdict(ev)
	case runlog.EventCompaction:
		t.compaction(ev)
	case runlog.EventNotify:
		t.line(ev, "notify", oneLine(ev.Text, 200))
	case runlog.EventQuestion:
		t.line(ev, "question", oneLine(ev.Text, 200))
	case runlog.EventReplan:
		t.line(ev, "replan", oneLine(ev.Text, 200))
	case runlog.EventCancel:
		t.line(ev, "cancel", oneLine(ev.Text, 200))
	case runlog.EventHandover:
		t.line(ev, "handover", oneLine(ev.Text, 200))
	case runlog.EventScene:
		// A confirmed call's effects follow its result; the Brief itself is
		// in the run log, too long for a trace line.
		if ev.Tool != "" {
			t.later(ev, "scene", termesc.Escape(ev.Tool)+": "+oneLine(ev.Text, 200))
		}
	case runlog.EventMemory:
		t.line(ev, "memory", oneLine(ev.Text, 200))
	case runlog.EventSinkError:
		t.line(ev, "sink", oneLine(ev.Text, 200))
	case runlog.EventSafety:
		t.line(ev, "safety", oneLine(ev.Text, 200))
	case runlog.EventModelRetry:
		if t.verbose && ev.Retry != nil {
			t.line(ev, "retry", RetryText(*ev.Retry))
		}
	case runlog.EventContext:
		if t.verbose && ev.Tokens != nil {
			c := ev.Tokens
			t.line(ev, "context", fmt.Sprintf("~%d tokens (resident %d, refreshed %d, accumulated %d)", c.Total, c.Resident, c.Refreshed, c.Accumulated))
		}
	case runlog.EventDone:
		t.done(ev)
	}
	return t.err
}

// Close prints lines still held for a result that never came.
func (t *Writer) Close() error {
	t.flushAfter()
	return t.err
}

func (t *Writer) printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, a...)
	}
}

// line prints one trace line; text must already be escaped.
func (t *Writer) line(ev runlog.Event, kind, text string) {
	t.printf("%s", formatLine(ev, kind, text))
}

// later holds a line until the call's result is printed.
func (t *Writer) later(ev runlog.Event, kind, text string) {
	t.after = append(t.after, formatLine(ev, kind, text))
}

func (t *Writer) flushAfter() {
	for _, l := range t.after {
		t.printf("%s", l)
	}
	t.after = t.after[:0]
}

func formatLine(ev runlog.Event, kind, text string) string {
	return fmt.Sprintf("turn %-3d %-10s %s\n", ev.Turn, kind, text)
}

func (t *Writer) observation(ev runlog.Event) {
	switch {
	case ev.Observation != nil:
		t.line(ev, "observe", observationLine(ev))
	case ev.Text != "":
		t.line(ev, "observe", termesc.Escape(ev.Text))
	}
}

func (t *Writer) model(ev runlog.Event) {
	line := ""
	if s := foldSpace(ev.Text, 160); s != "" {
		// %q is terminal-safe on its own (it escapes every non-printable
		// rune), so the text is quoted once rather than escaped twice.
		line = fmt.Sprintf("%q", s)
	}
	if ev.Tool != "" {
		if line != "" {
			line += " "
		}
		line += "→ " + termesc.Escape(ev.Tool) + " " + compactJSON(ev.Args, 160)
	}
	if line == "" {
		line = "(no text, no tool call)"
	}
	t.line(ev, "model", line)
	if u := ev.Usage; u != nil && t.verbose {
		t.line(ev, "tokens", usageText(*u))
	}
}

func (t *Writer) hook(ev runlog.Event) {
	h := ev.Hook
	if h == nil || ((h.Decision == runlog.DecisionSkip || h.Decision == runlog.DecisionEvaluate) && !t.verbose) {
		return // the evaluation line reports an evaluate hook's outcome
	}
	line := fmt.Sprintf("%s %s: %s", termesc.Escape(h.Phase), termesc.Escape(h.Hook), termesc.Escape(string(h.Decision)))
	if h.Before != nil || h.After != nil {
		line += fmt.Sprintf(" %s → %s", compactJSON(h.Before, 80), compactJSON(h.After, 80))
	}
	if h.Reason != "" {
		line += " — " + oneLine(h.Reason, 160)
	}
	if h.Phase == "post" {
		t.later(ev, "hook", line)
	} else {
		t.line(ev, "hook", line)
	}
}

func (t *Writer) result(ev runlog.Event) {
	r := ev.Result
	if r == nil {
		return
	}
	if r.Success {
		t.line(ev, "result", fmt.Sprintf("%s ✓ %s", termesc.Escape(ev.Tool), compactJSON(r.Value, 140)))
	} else {
		t.line(ev, "result", fmt.Sprintf("%s ✗ %s", termesc.Escape(ev.Tool), oneLine(r.Reason, 160)))
	}
	t.flushAfter()
}

func (t *Writer) verdict(ev runlog.Event) {
	v := ev.Verdict
	if v == nil {
		return
	}
	line := fmt.Sprintf("%s: %s (by %s)", termesc.Escape(ev.Tool), termesc.Escape(string(v.Status)), termesc.Escape(v.Source))
	if v.Reason != "" {
		line += " — " + oneLine(v.Reason, 160)
	}
	t.later(ev, "verdict", line)
}

func (t *Writer) compaction(ev runlog.Event) {
	c := ev.Compaction
	switch {
	case c == nil:
	case c.OK:
		t.line(ev, "compact", fmt.Sprintf("%d → %d messages, ~%d → ~%d tokens in %d round(s)", c.MessagesBefore, c.MessagesAfter, c.TokensBefore, c.TokensAfter, c.Rounds))
	default:
		t.line(ev, "compact", "failed, context unchanged: "+termesc.Escape(c.Error))
	}
}

func (t *Writer) done(ev runlog.Event) {
	d := ev.Done
	if d == nil {
		return
	}
	t.flushAfter()
	t.printf("── done: %s after %d turn(s)\n", termesc.Escape(string(d.Reason)), d.Turns)
	if u := d.Usage; u.InputTokens > 0 || u.OutputTokens > 0 {
		t.printf("tokens: %s\n", usageText(u))
	}
	if d.Error != "" {
		t.printf("error: %s\n", termesc.Escape(d.Error))
	}
	t.printf("report: %s\n", Block(strings.TrimSpace(d.Text)))
	if d.RunDir != "" {
		t.printf("run log: %s\n", termesc.Escape(d.RunDir))
	}
}

// usageText is a call's or a task's token use, with the cached share of the
// input when the provider reports it.
func usageText(u model.Usage) string {
	s := fmt.Sprintf("%d in, %d out", u.InputTokens, u.OutputTokens)
	if u.CachedInputTokens > 0 && u.InputTokens > 0 {
		s += fmt.Sprintf(" (%d cached, %.0f%%)", u.CachedInputTokens, 100*float64(u.CachedInputTokens)/float64(u.InputTokens))
	}
	return s
}

// Block escapes a multi-line untrusted text (a report, an error that
// quotes a back-end's stderr) and indents its continuation lines, so no
// line of it can pass for a line of the trace or of the CLI's own output.
func Block(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termesc.Escape(l)
	}
	return strings.Join(lines, "\n  ")
}

func observationLine(ev runlog.Event) string {
	o := ev.Observation
	var parts []string
	if c := o.Clearance; len(c) > 0 {
		parts = append(parts, ClearanceText(c))
	}
	if o.Pose != nil && o.Pose.Room != "" {
		parts = append(parts, "in "+termesc.Escape(o.Pose.Room))
	}
	// What the gripper holds only when the back-end said (held "" is
	// nothing; no held at all is unknown, and not shown).
	if o.Known(world.FieldHeld) {
		held := o.Held
		if held == "" {
			held = "nothing"
		}
		parts = append(parts, "holding "+termesc.Escape(held))
	}
	var seen []string
	for _, d := range o.Detections {
		if d.Visible {
			seen = append(seen, termesc.Escape(d.Name))
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

// compactJSON renders a value as one bounded, escaped line of JSON.
func compactJSON(v any, limit int) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return oneLine(fmt.Sprintf("%v", v), limit)
	}
	return oneLine(string(b), limit)
}

// oneLine folds whitespace, bounds a string keeping its start, and escapes
// it for the terminal.
func oneLine(s string, limit int) string {
	return termesc.Escape(foldSpace(s, limit))
}

// foldSpace folds runs of whitespace into one space and bounds the result
// to limit runes ("…" marks a cut).
func foldSpace(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}

// ClearanceText is a reading in one short phrase: a base's four sectors as
// F/B/L/R, any other body's sectors by name (escaped: a back-end names them).
func ClearanceText(c world.Clearance) string {
	var b strings.Builder
	b.WriteString("clearance")
	base := map[string]string{"front": "F", "back": "B", "left": "L", "right": "R"}
	for _, k := range []string{"front", "back", "left", "right"} {
		if v, ok := c[k]; ok {
			fmt.Fprintf(&b, " %s %.2f", base[k], v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if _, ok := base[k]; !ok {
			fmt.Fprintf(&b, " %s %.2f", termesc.Escape(k), c[k])
		}
	}
	return b.String()
}
