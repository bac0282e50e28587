package report

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// An operator's pause and hand back are rows of the report, the note in
// the hand back's text.
func TestHandoverRows(t *testing.T) {
	for _, c := range []struct {
		hv    runlog.Handover
		text  string
		label string
	}{
		{runlog.Handover{Action: runlog.HandoverPause, By: "console", Call: "drive"}, "paused by console: drive was stopped through the stop path", "operator took over"},
		{runlog.Handover{Action: runlog.HandoverBack, By: "console", Note: "parked at the dock"}, "handed back by console after 5s: parked at the dock", "operator handed back"},
	} {
		r, ok := rowFor(runlog.Event{Kind: runlog.EventHandover, Turn: 1, Text: c.text, Handover: &c.hv})
		if !ok || r.Label != c.label || r.Text != c.text || r.Status != "warn" || !strings.Contains(r.Detail, c.hv.By) {
			t.Errorf("row %+v %v", r, ok)
		}
	}
}
