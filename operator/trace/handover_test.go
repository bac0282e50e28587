package trace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// An operator's pause and hand back are trace lines, in both views, their
// text escaped like every line's.
func TestHandoverLines(t *testing.T) {
	evs := []runlog.Event{
		{Kind: runlog.EventHandover, Turn: 1, Text: "paused by terminal: move_base was stopped through the stop path",
			Handover: &runlog.Handover{Action: runlog.HandoverPause, By: "terminal"}},
		{Kind: runlog.EventHandover, Turn: 2, Text: "handed back by terminal after 5s: parked\x1b[2J by the dock",
			Handover: &runlog.Handover{Action: runlog.HandoverBack, By: "terminal", Note: "parked by the dock"}},
	}
	var plain, live bytes.Buffer
	w, l := New(&plain, false), NewLive(&live, false)
	for _, ev := range evs {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
		if err := l.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	for name, out := range map[string]string{"trace": plain.String(), "live": live.String()} {
		for _, want := range []string{"paused by terminal: move_base was stopped", "handed back by terminal after 5s: parked"} {
			if !strings.Contains(out, want) {
				t.Errorf("the %s view lacks %q:\n%s", name, want, out)
			}
		}
		if strings.Contains(out, "\x1b[2J") {
			t.Errorf("the %s view printed a raw escape", name)
		}
	}
}
