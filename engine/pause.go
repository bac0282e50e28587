package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/runlog"
)

// An operator takes the robot over: Pause ends the call in flight through
// the body layer's stop path (its context is cancelled, as an interrupt
// does, but the task goes on) and holds the loop before its next model
// request; the operator drives the robot with their own teleop; HandBack
// lets the loop go on, and the next request tells the model in words who
// had the robot, for how long and what they wrote, with every Scene Graph
// fact unconfirmed until the fresh observation that turn takes.

// OperatorHold is what a face (the terminal, the HTTP API, the console)
// pauses and hands back: a *Harness.
type OperatorHold interface {
	Pause(by string) (runlog.Handover, error)
	HandBack(by, note string) (runlog.Handover, error)
	Paused() (runlog.Handover, bool)
}

var _ OperatorHold = (*Harness)(nil)

// ErrPaused is returned by Pause when the session is already paused.
var ErrPaused = errors.New("the session is already paused")

// ErrNotPaused is returned by HandBack when the session is not paused.
var ErrNotPaused = errors.New("the session is not paused")

// errPausedCall is the cause a pause cancels the call in flight with.
var errPausedCall = errors.New("an operator paused the agent")

// maxNoteRunes bounds a hand back's note: it joins every later request.
const maxNoteRunes = 2000

// pauseGate is the session's operator hold. Its own lock: Pause and
// HandBack come from other goroutines (an HTTP handler, a terminal key)
// while the task runs.
type pauseGate struct {
	mu sync.Mutex
	// cur is the pause in effect; nil while the agent has the robot.
	cur *runlog.Handover
	// resumed is closed by the hand back that ends cur.
	resumed chan struct{}
	// back is a hand back the loop has not yet told the model.
	back *runlog.Handover
	// call cancels the tool call in flight (nil: none), named callTool.
	call     context.CancelCauseFunc
	callTool string
}

// Pause hands the robot to an operator (by says who: "console", "api",
// "terminal"): the call in flight, if any, ends through the stop path and
// no model request is made until HandBack. Between tasks it holds the next
// task before its first request. The pause is an event of the running
// task's record (or of the next task's).
func (h *Harness) Pause(by string) (runlog.Handover, error) {
	if h.closed.Load() {
		return runlog.Handover{}, ErrClosed
	}
	if by = strings.TrimSpace(by); by == "" {
		return runlog.Handover{}, errors.New("pause: say who pauses (by)")
	}
	g := &h.pause
	g.mu.Lock()
	if g.cur != nil {
		cur := *g.cur
		g.mu.Unlock()
		return cur, fmt.Errorf("%w (since %s, by %s)", ErrPaused, cur.PausedAt.Format(time.RFC3339), cur.By)
	}
	hv := runlog.Handover{Action: runlog.HandoverPause, By: by, PausedAt: h.clock()}
	if g.call != nil {
		hv.Call = g.callTool
		g.call(errPausedCall)
	}
	g.cur, g.resumed = &hv, make(chan struct{})
	g.mu.Unlock()
	text := fmt.Sprintf("paused by %s: the agent waits for the operator to hand back", by)
	if hv.Call != "" {
		text = fmt.Sprintf("paused by %s: %s was stopped through the stop path; the agent waits for the operator to hand back", by, hv.Call)
	}
	h.queue(runlog.Event{Kind: runlog.EventHandover, Text: text, Handover: &hv})
	return hv, nil
}

// HandBack ends the pause: by says who, note is what the operator tells the
// model (what they did, where they left the robot). The loop goes on; its
// next request says so. A note longer than maxNoteRunes is refused.
func (h *Harness) HandBack(by, note string) (runlog.Handover, error) {
	if by = strings.TrimSpace(by); by == "" {
		return runlog.Handover{}, errors.New("hand back: say who hands back (by)")
	}
	note = strings.TrimSpace(note)
	if n := len([]rune(note)); n > maxNoteRunes {
		return runlog.Handover{}, fmt.Errorf("hand back: the note has %d characters, at most %d (it joins every later request)", n, maxNoteRunes)
	}
	g := &h.pause
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur == nil {
		return runlog.Handover{}, ErrNotPaused
	}
	now := h.clock()
	hv := runlog.Handover{Action: runlog.HandoverBack, By: by, PausedBy: g.cur.By, PausedAt: g.cur.PausedAt,
		Call: g.cur.Call, HandedBackAt: now, PausedMS: runlog.Millis(now.Sub(g.cur.PausedAt)), Note: note}
	if prev := g.back; prev != nil {
		// Two takeovers before the loop ran again (between tasks): the
		// model hears of both, as one.
		hv.PausedBy, hv.PausedAt, hv.Call = prev.PausedBy, prev.PausedAt, prev.Call
		hv.PausedMS += prev.PausedMS
		hv.Note = strings.TrimSpace(prev.Note + "\n" + note)
	}
	g.back = &hv
	g.cur = nil
	close(g.resumed)
	return hv, nil
}

// Paused returns the pause in effect, if any.
func (h *Harness) Paused() (runlog.Handover, bool) {
	g := &h.pause
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur == nil {
		return runlog.Handover{}, false
	}
	return *g.cur, true
}

// paused reports whether an operator has the robot.
func (g *pauseGate) paused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cur != nil
}

// enterCall registers a tool call about to run, so a pause can end it; it
// refuses (a reason) when the session is already paused. done unregisters.
func (g *pauseGate) enterCall(ctx context.Context, tool string) (context.Context, func(), string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur != nil {
		return ctx, func() {}, fmt.Sprintf("not executed: %s paused the agent before this call ran; an operator has the robot until they hand back", g.cur.By)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	g.call, g.callTool = cancel, tool
	return cctx, func() {
		g.mu.Lock()
		g.call, g.callTool = nil, ""
		g.mu.Unlock()
		cancel(nil)
	}, ""
}

// awaitOperator holds the loop while the session is paused (no model
// request), then tells the model of a hand back; a report when the task
// ends meanwhile (its context: Ctrl-C, a served stop).
func (h *Harness) awaitOperator(ctx context.Context, t *task) *runlog.Report {
	g := &h.pause
	g.mu.Lock()
	var resumed chan struct{}
	if g.cur != nil {
		resumed = g.resumed
	}
	g.mu.Unlock()
	// While it waits, what is queued (the pause itself, the stop path's
	// stop, late reply or kill) reaches the record as it happens.
	for waiting := resumed != nil; waiting; {
		h.flush(t)
		select {
		case <-resumed:
			waiting = false
		case <-t.wake:
		case <-ctx.Done():
			return h.cancelled(ctx, t, "the operator handed back")
		}
	}
	g.mu.Lock()
	back := g.back
	g.back = nil
	g.mu.Unlock()
	if back != nil {
		h.tellHandBack(t, *back)
	}
	h.flush(t)
	return nil
}

// tellHandBack puts the hand back into Accumulated context, the Task Notes
// and the record, and marks the Scene Graph's facts unconfirmed: the turn
// that follows observes afresh, and the Brief says what it did not see
// again.
func (h *Harness) tellHandBack(t *task, hv runlog.Handover) {
	turn := h.groupN + 1 // the turn about to run
	h.hostMu.Lock()
	marked := h.scene.MarkAllUnconfirmed(turn)
	h.hostMu.Unlock()
	text := handBackText(hv, len(marked) > 0)
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindInstruction, Group: turn, Msg: userText(text)})
	took := time.Duration(hv.PausedMS * float64(time.Millisecond)).Round(time.Second)
	t.notes.add(t.turn+1, oneLine(fmt.Sprintf("an operator (%s) had the robot for %s and handed back: %s", hv.PausedBy, took, orNone(hv.Note)), 160))
	h.emit(t, runlog.Event{Kind: runlog.EventHandover, Handover: &hv,
		Text: fmt.Sprintf("handed back by %s after %s: %s", hv.By, took, orNone(hv.Note))})
}

// handBackText is what the model reads: who had the robot, for how long,
// what they wrote, and what may have changed.
func handBackText(hv runlog.Handover, scene bool) string {
	took := time.Duration(hv.PausedMS * float64(time.Millisecond)).Round(time.Second)
	var b strings.Builder
	fmt.Fprintf(&b, "Operator takeover: an operator (%s) paused you at %s and drove the robot by hand for %s, then handed control back (%s).",
		hv.PausedBy, hv.PausedAt.UTC().Format(time.TimeOnly+" MST"), took, hv.By)
	if hv.Call != "" {
		fmt.Fprintf(&b, " Your call %s was stopped when they paused: its result says so.", hv.Call)
	}
	if hv.Note != "" {
		fmt.Fprintf(&b, "\nThe operator's note: %s", hv.Note)
	} else {
		b.WriteString("\nThe operator left no note.")
	}
	b.WriteString("\nThe robot may have moved and what it holds may have changed while they had it. The observation with this request was taken after the hand back")
	if scene {
		b.WriteString("; Scene Graph facts are marked unconfirmed until an observation shows them again")
	}
	b.WriteString(". Check the robot's pose and what it holds before relying on earlier facts.")
	return b.String()
}

func orNone(note string) string {
	if note == "" {
		return "(no note)"
	}
	return note
}
