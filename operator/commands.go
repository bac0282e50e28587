package operator

import (
	"context"
	"github.com/thea-harness/thea/internal/termesc"
	"strings"
)

const helpText = `commands:
  INSTRUCTION     (idle) run a task; Accumulated context carries over between tasks
  /replan TEXT    (running) revise the running task's instruction
  /stop           (running) stop the running task safely (as Ctrl-C does)
  /reset          (idle) clear the session's Accumulated context
  /clear          (idle) clear the robot's uncertain-motion state, after checking the robot
  /pause, Ctrl-Z  take the robot over: the running call is stopped through the stop path and
                  the agent waits; the next line you type is the note for the model, and
                  Enter hands back (/resume NOTE does too)
  /quit           leave (Ctrl-D when idle, or Ctrl-C twice within 2s)`

// whileRunning handles a line typed while a task runs: only commands. It
// reports whether the session should end once the task has stopped.
func (c *Console) whileRunning(t *task, text string) bool {
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
			c.say("unknown command %s (/help lists them)", termesc.Escape(cmd))
		} else {
			c.say("a task is running; typed lines are commands now (/replan TEXT, /stop): not run")
		}
	}
	return false
}

// whenIdle handles a line typed with no task running: a command or the
// next instruction. It returns the task started, or quit.
func (c *Console) whenIdle(ctx context.Context, text string) (t *task, quit bool) {
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
		if err := c.Session.ResetSession(); err != nil {
			c.say("thea: reset: %v", err)
		} else {
			c.say("session reset: Accumulated context cleared")
		}
		c.prompt()
	case cmd == "/clear":
		c.say("cleared the uncertain state of %d toolset(s)", c.Session.ClearUncertain())
		c.prompt()
	case cmd == "/stop" || cmd == "/replan":
		c.say("no task is running")
		c.prompt()
	case strings.HasPrefix(cmd, "/"):
		c.say("unknown command %s (/help lists them)", termesc.Escape(cmd))
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
