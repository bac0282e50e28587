package operator

import (
	"errors"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/termesc"
)

// The operator takes the robot over at the terminal: Ctrl-Z (or /pause)
// pauses the agent, its running call ending through the stop path; the
// operator drives the robot with its own controls; the next line typed is
// the note for the model, and Enter hands back (/stop and /quit still stop
// the task instead).

// pauseBy is who the record says paused and handed back.
const pauseBy = "terminal"

// pause hands the robot to the operator.
func (c *Console) pause() {
	hold, ok := c.Session.(engine.OperatorHold)
	if !ok {
		c.say("this session cannot be paused")
		return
	}
	hv, err := hold.Pause(pauseBy)
	switch {
	case errors.Is(err, engine.ErrPaused):
		c.say("already paused: type the note for the model and press Enter to hand back")
		return
	case err != nil:
		c.say("thea: pause: %v", err)
		return
	}
	c.paused = true
	if hv.Call != "" {
		c.say("paused: %s was stopped through the stop path.", termesc.Escape(hv.Call))
	} else {
		c.say("paused.")
	}
	c.say("You have the robot: drive it with its own controls. No model request is made until you hand back.")
	c.notePrompt()
}

func (c *Console) notePrompt() {
	_ = c.Terminal.Printf("note for the model (Enter hands back; /stop ends the task)> ")
}

// handover routes a typed line through the pause: /pause pauses; while
// paused any line but /stop, /quit and /help is the note that hands back.
// It reports whether the line was handled.
func (c *Console) handover(text string) bool {
	cmd, arg := splitCommand(text)
	if cmd == "/pause" {
		c.pause()
		return true
	}
	if !c.paused {
		return false
	}
	switch cmd {
	case "/stop", "/quit", "/help":
		return false
	case "/resume":
		text = arg
	}
	hv, err := c.Session.(engine.OperatorHold).HandBack(pauseBy, text)
	if err != nil {
		if errors.Is(err, engine.ErrNotPaused) {
			c.paused = false
			return false
		}
		c.say("thea: hand back: %v", err)
		c.notePrompt()
		return true
	}
	c.paused = false
	if hv.Note == "" {
		c.say("handed back with no note: the model is told an operator had the robot")
	} else {
		c.say("handed back: the model's next request carries your note")
	}
	return true
}
