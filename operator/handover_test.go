package operator

import (
	"os"
	"sync"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// pausable is fakeSession with the operator's hold, recording each pause
// and hand back as "pause by WHO" and "back by WHO: NOTE".
type pausable struct {
	*fakeSession
	hmu    sync.Mutex
	calls  []string
	paused bool
}

func (p *pausable) Pause(by string) (runlog.Handover, error) {
	p.hmu.Lock()
	defer p.hmu.Unlock()
	if p.paused {
		return runlog.Handover{}, engine.ErrPaused
	}
	p.paused = true
	p.calls = append(p.calls, "pause by "+by)
	return runlog.Handover{Action: runlog.HandoverPause, By: by, Call: "move_base"}, nil
}

func (p *pausable) HandBack(by, note string) (runlog.Handover, error) {
	p.hmu.Lock()
	defer p.hmu.Unlock()
	if !p.paused {
		return runlog.Handover{}, engine.ErrNotPaused
	}
	p.paused = false
	p.calls = append(p.calls, "back by "+by+": "+note)
	return runlog.Handover{Action: runlog.HandoverBack, By: by, Note: note}, nil
}

// Paused completes the hold; the console never asks it.
func (p *pausable) Paused() (runlog.Handover, bool) {
	p.hmu.Lock()
	defer p.hmu.Unlock()
	return runlog.Handover{}, p.paused
}

// Ctrl-Z pauses the running task; the next line is the note that hands
// back. /pause does the same, and /resume NOTE hands back too.
func TestPauseKeyAndNote(t *testing.T) {
	c, s, in, out := console(t)
	p := &pausable{fakeSession: s}
	c.Session = p
	keys := make(chan os.Signal, 1)
	c.Pauses = keys
	quit := interactive(t, c, in)
	waitFor(t, out, "thea> ")
	typeLine(t, in, "drive to the door")
	<-s.running
	keys <- os.Interrupt // the value is not read: Ctrl-Z on a terminal
	waitFor(t, out, "paused: move_base was stopped through the stop path.")
	waitFor(t, out, "note for the model (Enter hands back")
	typeLine(t, in, "I parked it by the dock")
	waitFor(t, out, "handed back: the model's next request carries your note")
	typeLine(t, in, "/pause")
	waitFor(t, out, "You have the robot")
	typeLine(t, in, "/resume the door is closed")
	waitFor(t, out, "handed back: the model's")
	typeLine(t, in, "/stop")
	waitFor(t, out, "task ended: cancelled")
	quit()
	p.hmu.Lock()
	defer p.hmu.Unlock()
	want := []string{"pause by terminal", "back by terminal: I parked it by the dock", "pause by terminal", "back by terminal: the door is closed"}
	if len(p.calls) != len(want) {
		t.Fatalf("calls %q, want %q", p.calls, want)
	}
	for i := range want {
		if p.calls[i] != want[i] {
			t.Errorf("call %d: %q, want %q", i, p.calls[i], want[i])
		}
	}
}
