package operator

import (
	"context"
	"errors"
	"io"
	"iter"
	"os"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// leaveWindow is how soon a second Ctrl-C must follow the first to leave.
const leaveWindow = 2 * time.Second

// Session is what the console drives of a session: its tasks, its reset and
// the operator's clear of the robot's uncertain-motion state.
type Session interface {
	RunStream(ctx context.Context, instruction string, opts ...engine.RunOption) iter.Seq[runlog.Event]
	ResetSession() error
	ClearUncertain() int
}

var _ Session = (*engine.Harness)(nil)

// View shows a session's events: the live view on a terminal, the plain
// trace otherwise, or the raw event stream.
type View interface {
	engine.Sink
	// Tick animates the view (the live view's spinner).
	Tick(now time.Time) error
	// Clear erases a transient status line before the session prints.
	Clear()
}

// Console is one `thea run` session at the operator's seat: it starts
// tasks, routes typed lines (instructions when idle, /commands while a task
// runs; a pending question takes the next line first, see user.Terminal),
// and turns Ctrl-C into a safe stop of the running task.
type Console struct {
	Session  Session
	Terminal *channels.Terminal
	View     View
	// Signals delivers the operator's interrupts (Ctrl-C).
	Signals <-chan os.Signal
	// Now is the clock that times a second Ctrl-C; nil means time.Now.
	Now func() time.Time
	// Tick animates the view; nil when the view has nothing to animate.
	Tick <-chan time.Time
	// Pauses delivers the operator's pause key (Ctrl-Z) in an interactive
	// session; nil when there is none (see handover.go).
	Pauses <-chan os.Signal

	// paused: the operator has the robot; the next line is the note.
	paused bool
}

// clock is Now, or time.Now when unset.
func (c *Console) clock() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// say prints the session's own line on the terminal, never inside the
// view's transient status line.
func (c *Console) say(format string, a ...any) {
	c.View.Clear()
	_ = c.Terminal.Printf(format+"\n", a...) // the terminal gone: nothing left to tell
}

// Batch runs the instructions one after another. Ctrl-C stops the running
// task safely and runs no further instruction. It reports whether every
// task ended with a final answer.
func (c *Console) Batch(ctx context.Context, instructions []string) bool {
	ok := true
	for _, instruction := range instructions {
		t := c.start(ctx, instruction)
		interrupted := false
		for reason := runlog.DoneReason(""); reason == ""; {
			select {
			case reason = <-t.done:
				ok = ok && reason == runlog.DoneFinal
			case <-c.Signals:
				if !interrupted {
					c.say("stopping the task (Ctrl-C)")
				}
				interrupted = true
				t.stop()
			case now := <-c.Tick:
				_ = c.View.Tick(now) // a broken terminal shows in the task's own writes
			}
		}
		if interrupted {
			return false
		}
	}
	return ok
}

type line struct {
	text string
	err  error
}

// Interactive reads instructions until /quit, Ctrl-D when idle, or a
// second Ctrl-C within leaveWindow. Accumulated context carries over from
// task to task until /reset.
func (c *Console) Interactive(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan line)
	go func() {
		for {
			text, err := c.Terminal.ReadLine(ctx)
			select {
			case lines <- line{text, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	c.say("Type an instruction; /help lists the commands. Ctrl-C stops a task, Ctrl-D or /quit leaves.")
	c.prompt()
	var (
		t       *task
		lastInt time.Time
		leaving bool // leave once the running task has ended
	)
	for {
		var done <-chan runlog.DoneReason
		if t != nil {
			done = t.done
		}
		select {
		case <-ctx.Done():
			if t != nil {
				t.stop()
				<-t.done // the harness closes only after its task has ended
			}
			return
		case <-c.Signals:
			now := c.clock()
			again := !lastInt.IsZero() && now.Sub(lastInt) < leaveWindow
			lastInt = now
			switch {
			case again && t != nil:
				c.say("leaving after the task stops")
				leaving = true
				t.stop()
			case again:
				return
			case t != nil:
				c.say("stopping the task (Ctrl-C again within 2s leaves)")
				t.stop()
			default:
				c.say("(Ctrl-C again within 2s, Ctrl-D or /quit leaves)")
				c.prompt()
			}
		case <-c.Pauses:
			c.pause()
		case l := <-lines:
			if l.err == nil && c.handover(l.text) {
				continue
			}
			if l.err != nil {
				if !errors.Is(l.err, io.EOF) {
					c.say("thea: %v", l.err)
				}
				if t == nil {
					return
				}
				leaving = true // end of input: leave after this task
				continue
			}
			if t != nil {
				leaving = c.whileRunning(t, l.text) || leaving
				continue
			}
			var quit bool
			if t, quit = c.whenIdle(ctx, l.text); quit {
				return
			}
		case reason := <-done:
			t = nil
			if leaving {
				return
			}
			if reason != runlog.DoneFinal {
				c.say("task ended: %s", reason)
			}
			if c.paused {
				c.notePrompt() // the pause outlives the task: the next one waits
				continue
			}
			c.prompt()
		case now := <-c.Tick:
			_ = c.View.Tick(now) // a broken terminal shows in the task's own writes
		}
	}
}

func (c *Console) prompt() { _ = c.Terminal.Printf("thea> ") }
