package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/trace"
	"github.com/thea-harness/thea/toolsets/user"
)

// leaveWindow is how soon a second Ctrl-C must follow the first to leave.
const leaveWindow = 2 * time.Second

// console is one `thea run` session at the operator's seat: it starts
// tasks, routes typed lines (instructions when idle, /commands while a task
// runs; a pending question takes the next line first, see user.Terminal),
// and turns Ctrl-C into a safe stop of the running task.
type console struct {
	h    *engine.Harness
	term *user.Terminal
	view view
	sigs <-chan os.Signal
	now  func() time.Time
	tick <-chan time.Time // nil when the view has nothing to animate
}

// task is a task in flight and the operator's handles on it.
type task struct {
	cancel  context.CancelFunc
	stopped atomic.Bool
	done    chan engine.DoneReason // the reason it ended, once

	mu       sync.Mutex
	revision string // a /replan not yet taken by the engine
	revised  bool
}

// stop ends the task safely: should_cancel holds from now on, and the
// running tool's context is cancelled (an MCP back-end receives
// notifications/cancelled, its deployment-owned interrupt path).
func (t *task) stop() {
	t.stopped.Store(true)
	t.cancel()
}

// revise queues an instruction revision for the engine's poll_replan.
func (t *task) revise(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.revision, t.revised = text, true
}

func (t *task) poll() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, ok := t.revision, t.revised
	t.revision, t.revised = "", false
	return text, ok
}

// start runs one task in its own goroutine, streaming its events to the view.
func (c *console) start(ctx context.Context, instruction string) *task {
	ctx, cancel := context.WithCancel(ctx)
	t := &task{cancel: cancel, done: make(chan engine.DoneReason, 1)}
	go func() {
		defer cancel()
		reason := engine.DoneError
		var werr error
		for ev := range c.h.RunStream(ctx, instruction, engine.WithShouldCancel(t.stopped.Load), engine.WithPollReplan(t.poll)) {
			if err := c.view.Write(ev); err != nil && werr == nil {
				werr = err
			}
			if ev.Kind == engine.EventDone && ev.Done != nil {
				reason = ev.Done.Reason
			}
		}
		if err := c.view.Close(); err != nil && werr == nil {
			werr = err
		}
		if werr != nil {
			c.say("thea: writing the trace: %v", werr)
		}
		t.done <- reason
	}()
	return t
}

// say prints the session's own line on the terminal, never inside the
// view's transient status line.
func (c *console) say(format string, a ...any) {
	c.view.Clear()
	_ = c.term.Printf(format+"\n", a...) // the terminal gone: nothing left to tell
}

// batch runs the instructions one after another. Ctrl-C stops the running
// task safely and runs no further instruction. It reports whether every
// task ended with a final answer.
func (c *console) batch(ctx context.Context, instructions []string) bool {
	ok := true
	for _, instruction := range instructions {
		t := c.start(ctx, instruction)
		interrupted := false
		for reason := engine.DoneReason(""); reason == ""; {
			select {
			case reason = <-t.done:
				ok = ok && reason == engine.DoneFinal
			case <-c.sigs:
				if !interrupted {
					c.say("stopping the task (Ctrl-C)")
				}
				interrupted = true
				t.stop()
			case now := <-c.tick:
				_ = c.view.Tick(now) // a broken terminal shows in the task's own writes
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

// interactive reads instructions until /quit, Ctrl-D when idle, or a
// second Ctrl-C within leaveWindow. Accumulated context carries over from
// task to task until /reset.
func (c *console) interactive(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan line)
	go func() {
		for {
			text, err := c.term.ReadLine(ctx)
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
		var done <-chan engine.DoneReason
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
		case <-c.sigs:
			now := c.now()
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
		case l := <-lines:
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
			if reason != engine.DoneFinal {
				c.say("task ended: %s", reason)
			}
			c.prompt()
		case now := <-c.tick:
			_ = c.view.Tick(now) // a broken terminal shows in the task's own writes
		}
	}
}

func (c *console) prompt() { _ = c.term.Printf("thea> ") }

const helpText = `commands:
  INSTRUCTION     (idle) run a task; Accumulated context carries over between tasks
  /replan TEXT    (running) revise the running task's instruction
  /stop           (running) stop the running task safely (as Ctrl-C does)
  /reset          (idle) clear the session's Accumulated context
  /clear          (idle) clear the robot's uncertain-motion state, after checking the robot
  /quit           leave (Ctrl-D when idle, or Ctrl-C twice within 2s)`

// whileRunning handles a line typed while a task runs: only commands. It
// reports whether the session should end once the task has stopped.
func (c *console) whileRunning(t *task, text string) bool {
	cmd, arg := splitCommand(text)
	switch cmd {
	case "/replan":
		if arg == "" {
			c.say("usage: /replan TEXT")
			return false
		}
		t.revise(arg)
		c.say("revision queued: it replaces the instruction before the next step")
	case "/stop":
		c.say("stopping the task")
		t.stop()
	case "/quit":
		c.say("stopping the task, then leaving")
		t.stop()
		return true
	case "/help":
		c.say("%s", helpText)
	case "":
	case "/reset", "/clear":
		c.say("%s: only when no task runs (/stop it first)", cmd)
	default:
		if strings.HasPrefix(cmd, "/") {
			c.say("unknown command %s (/help lists them)", trace.Escape(cmd))
		} else {
			c.say("a task is running; typed lines are commands now (/replan TEXT, /stop): not run")
		}
	}
	return false
}

// clearer is the operator's clear of the robot's uncertain-motion state,
// when this build's Harness has it.
type clearer interface{ ClearUncertain() int }

// whenIdle handles a line typed with no task running: a command or the
// next instruction. It returns the task started, or quit.
func (c *console) whenIdle(ctx context.Context, text string) (t *task, quit bool) {
	cmd, _ := splitCommand(text)
	switch {
	case cmd == "":
		c.prompt()
	case cmd == "/quit":
		return nil, true
	case cmd == "/help":
		c.say("%s", helpText)
		c.prompt()
	case cmd == "/reset":
		if err := c.h.ResetSession(); err != nil {
			c.say("thea: reset: %v", err)
		} else {
			c.say("session reset: Accumulated context cleared")
		}
		c.prompt()
	case cmd == "/clear":
		if cl, ok := any(c.h).(clearer); ok {
			c.say("cleared the uncertain state of %d toolset(s)", cl.ClearUncertain())
		} else {
			c.say("/clear is not available in this build")
		}
		c.prompt()
	case cmd == "/stop" || cmd == "/replan":
		c.say("no task is running")
		c.prompt()
	case strings.HasPrefix(cmd, "/"):
		c.say("unknown command %s (/help lists them)", trace.Escape(cmd))
		c.prompt()
	default:
		return c.start(ctx, strings.TrimSpace(text)), false
	}
	return nil, false
}

// splitCommand splits "/replan go to the kitchen" into the command and its
// argument; a line that is not a command comes back whole as cmd.
func splitCommand(text string) (cmd, arg string) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") {
		return text, ""
	}
	cmd, arg, _ = strings.Cut(text, " ")
	return cmd, strings.TrimSpace(arg)
}
