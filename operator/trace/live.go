package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/runlog"
)

// Live renders a task's events for a person at a terminal: the turn, the
// tool and its arguments, hook decisions (blocked, clamped, confirmed),
// evaluator verdicts, compaction, a spinner with the elapsed time while the
// model thinks, and the tokens used. Only its own ANSI codes reach the
// terminal: every untrusted string passes Escape (or %q). It is an
// engine.Sink; Tick redraws the spinner and may be called from another
// goroutine than Write (the CLI drives it with a ticker).
type Live struct {
	mu      sync.Mutex
	w       io.Writer
	verbose bool
	err     error
	after   []string // post-execution lines, held until the call's result

	status   bool      // a transient status line is drawn and must be erased
	thinking bool      // between the context event and the model event
	since    time.Time // when the model call started
	frame    int
	turn     int
	context  int // estimated tokens of the request being decided
	start    time.Time
	usage    usageTotals
}

var _ engine.Sink = (*Live)(nil)

// NewLive returns a Live view printing to w (a terminal); verbose adds
// skipped hooks, evaluate hooks and each retried model call attempt.
func NewLive(w io.Writer, verbose bool) *Live {
	return &Live{w: w, verbose: verbose}
}

// ANSI codes: the renderer's own, never taken from input.
const (
	eraseLine = "\r\x1b[2K"
	bold      = "\x1b[1m"
	dim       = "\x1b[2m"
	red       = "\x1b[31m"
	green     = "\x1b[32m"
	yellow    = "\x1b[33m"
	cyan      = "\x1b[36m"
	reset     = "\x1b[0m"
)

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Write renders one event; it returns the first error writing to w.
func (l *Live) Write(ev runlog.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearStatus()
	switch ev.Kind {
	case runlog.EventTaskStart:
		l.start, l.usage, l.turn = ev.Time, usageTotals{}, 0
		l.printf("%s── task %d%s %s\n", bold, ev.Task, reset, termesc.Escape(ev.Text))
	case runlog.EventContext:
		l.thinking, l.since, l.turn = true, ev.Time, ev.Turn
		if ev.Tokens != nil {
			l.context = ev.Tokens.Total
		}
		l.drawStatus(ev.Time)
	case runlog.EventModel:
		l.thinking = false
		l.model(ev)
	case runlog.EventObservation:
		if ev.Observation != nil {
			l.line(ev, dim+"observe"+reset, observationLine(ev))
		} else if ev.Text != "" {
			l.line(ev, yellow+"observe"+reset, termesc.Escape(ev.Text))
		}
	case runlog.EventHook:
		l.hook(ev)
	case runlog.EventToolResult:
		l.result(ev)
	case runlog.EventEvaluation:
		if v := ev.Verdict; v != nil {
			mark := green + "✓" + reset
			if v.Status != "success" {
				mark = red + "✗" + reset
			}
			text := fmt.Sprintf("verdict %s %s %s (by %s)", mark, termesc.Escape(ev.Tool), termesc.Escape(string(v.Status)), termesc.Escape(v.Source))
			if v.Reason != "" {
				text += " — " + oneLine(v.Reason, 160)
			}
			l.after = append(l.after, l.format(ev, text))
		}
	case runlog.EventCompaction:
		if c := ev.Compaction; c != nil && c.OK {
			l.line(ev, cyan+"compact"+reset, fmt.Sprintf("%d → %d messages, ~%s → ~%s tokens in %d round(s)",
				c.MessagesBefore, c.MessagesAfter, kilo(c.TokensBefore), kilo(c.TokensAfter), c.Rounds))
		} else if c != nil {
			l.line(ev, yellow+"compact"+reset, "failed, context unchanged: "+termesc.Escape(c.Error))
		}
	case runlog.EventNotify:
		l.line(ev, cyan+"notify"+reset, oneLine(ev.Text, 200))
	case runlog.EventQuestion:
		l.line(ev, cyan+"asked"+reset, oneLine(ev.Text, 200))
	case runlog.EventReplan:
		l.line(ev, cyan+"replan"+reset, oneLine(ev.Text, 200))
	case runlog.EventCancel:
		l.line(ev, yellow+"cancel"+reset, oneLine(ev.Text, 200))
	case runlog.EventHandover:
		l.line(ev, yellow+"handover"+reset, oneLine(ev.Text, 200))
	case runlog.EventMemory:
		l.line(ev, dim+"memory"+reset, oneLine(ev.Text, 200))
	case runlog.EventSinkError:
		l.line(ev, red+"sink"+reset, oneLine(ev.Text, 200))
	case runlog.EventModelRetry:
		if l.verbose && ev.Retry != nil {
			l.line(ev, yellow+"retry"+reset, RetryText(*ev.Retry))
		}
	case runlog.EventDone:
		l.done(ev)
	}
	return l.err
}

// Tick redraws the spinner while the model thinks; now is the wall clock.
func (l *Live) Tick(now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.thinking {
		l.frame++
		l.clearStatus()
		l.drawStatus(now)
	}
	return l.err
}

// Clear erases the status line, so the caller can print a line of its own;
// the next Tick redraws it.
func (l *Live) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearStatus()
}

// Close erases the status line and prints lines still held.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearStatus()
	l.thinking = false
	l.flushAfter()
	return l.err
}

func (l *Live) printf(format string, a ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format, a...)
	}
}

func (l *Live) clearStatus() {
	if l.status {
		l.printf("%s", eraseLine)
		l.status = false
	}
}

// drawStatus draws the transient line: spinner, turn, elapsed, context size.
func (l *Live) drawStatus(now time.Time) {
	elapsed := now.Sub(l.since).Round(100 * time.Millisecond)
	if elapsed < 0 {
		elapsed = 0
	}
	text := fmt.Sprintf("%s%s turn %d · thinking %.1fs", cyan, spinner[l.frame%len(spinner)], l.turn, elapsed.Seconds())
	if l.context > 0 {
		text += fmt.Sprintf(" · context ~%s tokens", kilo(l.context))
	}
	l.printf("%s%s", text, reset)
	l.status = true
}

func (l *Live) format(ev runlog.Event, text string) string {
	return fmt.Sprintf("%s%3d │%s %s\n", dim, ev.Turn, reset, text)
}

// line prints one line; kind carries its own colour, text is escaped.
func (l *Live) line(ev runlog.Event, kind, text string) {
	l.printf("%s", l.format(ev, kind+" "+text))
}

func (l *Live) flushAfter() {
	for _, s := range l.after {
		l.printf("%s", s)
	}
	l.after = l.after[:0]
}

func (l *Live) model(ev runlog.Event) {
	if s := foldSpace(ev.Text, 160); s != "" {
		l.line(ev, "model", fmt.Sprintf("%q", s)) // %q is terminal-safe
	}
	if u, ok := readUsage(ev.Usage); ok {
		l.usage.add(u)
		l.line(ev, dim+"tokens"+reset, dim+u.String()+reset)
	}
	if ev.Tool != "" {
		l.line(ev, bold+"→ "+termesc.Escape(ev.Tool)+reset, compactJSON(ev.Args, 160))
	} else if ev.Text == "" {
		l.line(ev, "model", "(no text, no tool call)")
	}
}

func (l *Live) hook(ev runlog.Event) {
	h := ev.Hook
	if h == nil {
		return
	}
	name := termesc.Escape(h.Hook)
	var text string
	switch h.Decision {
	case runlog.DecisionBlock:
		text = red + "⛔ blocked by " + name + reset
	case runlog.DecisionClamp, runlog.DecisionRewrite:
		before, after := compactJSON(h.Before, 80), compactJSON(h.After, 80)
		verb := map[runlog.DecisionKind]string{runlog.DecisionClamp: "clamped", runlog.DecisionRewrite: "rewritten"}[h.Decision]
		if before == after {
			text = dim + name + ": not " + verb + reset // within bounds: nothing changed
		} else {
			text = yellow + verb + " by " + name + reset + " " + before + " → " + after
		}
	case runlog.DecisionConfirm:
		text = green + "confirmed by " + name + reset
	case runlog.DecisionSkip, runlog.DecisionEvaluate:
		if !l.verbose {
			return // the verdict line reports an evaluate hook's outcome
		}
		text = dim + termesc.Escape(h.Phase) + " " + name + ": " + termesc.Escape(string(h.Decision)) + reset
	default:
		text = termesc.Escape(h.Phase) + " " + name + ": " + termesc.Escape(string(h.Decision))
	}
	if h.Reason != "" {
		text += " — " + oneLine(h.Reason, 160)
	}
	if h.Phase == "post" {
		l.after = append(l.after, l.format(ev, "hook "+text))
		return
	}
	l.line(ev, "hook", text)
}

func (l *Live) result(ev runlog.Event) {
	r := ev.Result
	if r == nil {
		return
	}
	if r.Success {
		l.line(ev, green+"✓"+reset, termesc.Escape(ev.Tool)+" "+compactJSON(r.Value, 140))
	} else {
		l.line(ev, red+"✗"+reset, termesc.Escape(ev.Tool)+" "+oneLine(r.Reason, 160))
	}
	l.flushAfter()
}

func (l *Live) done(ev runlog.Event) {
	l.thinking = false
	l.flushAfter()
	d := ev.Done
	if d == nil {
		return
	}
	colour := green
	if d.Reason != runlog.DoneFinal {
		colour = yellow
	}
	text := fmt.Sprintf("%s── done: %s%s after %d turn(s)", bold, colour+termesc.Escape(string(d.Reason)), reset+bold, d.Turns)
	if !l.start.IsZero() && !ev.Time.IsZero() {
		text += fmt.Sprintf(" · %.1fs", ev.Time.Sub(l.start).Seconds())
	}
	if l.usage.calls > 0 {
		text += " · tokens " + l.usage.String()
	}
	l.printf("%s%s\n", text, reset)
	if d.Error != "" {
		l.printf("%serror:%s %s\n", red, reset, termesc.Escape(d.Error))
	}
	l.printf("report: %s\n", Block(d.Text))
	if d.RunDir != "" {
		l.printf("%srun log: %s%s\n", dim, termesc.Escape(d.RunDir), reset)
	}
}

// usage is one response's token accounting, read generically from whatever
// the provider reported (model.Usage's JSON fields), so a field a provider
// adds, such as cached_input_tokens, shows without this renderer changing.
type usage struct{ in, out, cached int }

func (u usage) String() string {
	s := fmt.Sprintf("%s in", kilo(u.in))
	if u.cached > 0 && u.in > 0 {
		s += fmt.Sprintf(" (%d%% cached)", u.cached*100/u.in)
	}
	return s + fmt.Sprintf(" / %s out", kilo(u.out))
}

type usageTotals struct {
	usage
	calls int
}

func (t *usageTotals) add(u usage) {
	t.in, t.out, t.cached, t.calls = t.in+u.in, t.out+u.out, t.cached+u.cached, t.calls+1
}

// readUsage reads input, output and cached input tokens from a usage value.
func readUsage(v any) (usage, bool) {
	if v == nil {
		return usage{}, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return usage{}, false
	}
	var f struct {
		In     int `json:"input_tokens"`
		Out    int `json:"output_tokens"`
		Cached int `json:"cached_input_tokens"`
	}
	if json.Unmarshal(b, &f) != nil || f.In+f.Out == 0 {
		return usage{}, false
	}
	return usage{in: f.In, out: f.Out, cached: f.Cached}, true
}

// kilo prints a token count briefly: 950, 12.3k, 1.2M.
func kilo(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
