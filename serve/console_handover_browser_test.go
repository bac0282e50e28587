package serve

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// The handover in the console, as an operator does it: pause mid-drive (the
// back-end's stop tool is called: the stop path runs), the page says who
// has the robot, the operator writes a note and hands back, and the model's
// next request carries the note; the record holds the stop and both
// handover events.
func TestConsolePausesAndHandsBack(t *testing.T) {
	b := newBrowser(t)
	runs := t.TempDir()
	spec, started := driveSpec(t, runs)
	f, log := startRecorded(t, spec, driveTurns, Config{})
	b.open(f.base)
	b.typeInto("Instruction", "Drive on")
	b.click("button", "Run")
	b.waitFor("the drive's call", traceText+`.includes('→ drive')`)
	waitFile(t, started)

	b.click("button", "Pause")
	b.waitFor("the hand-back form", `!document.getElementById('handover').hidden`)
	b.waitFor("the stop path in the trace", traceText+`.includes('called because drive was cancelled: it answered success')`)
	b.waitFor("the pause in the trace", traceText+`.includes('paused by console')`)
	if got := b.evalString(`document.getElementById('handover-facts').textContent`); !strings.Contains(got, "Paused by console") || !strings.Contains(got, "drive was stopped") {
		t.Errorf("the hand-back form says %q", got)
	}
	log.firstOnly(t)

	b.typeInto("Note for the model", handoverNote)
	b.click("button", "Hand back")
	b.waitFor("the report", `!document.getElementById('report').hidden && document.getElementById('report-reason').textContent === 'final_answer'`)
	b.waitFor("the hand back in the trace", traceText+`.includes('handed back by console')`)
	b.waitFor("the hand-back form put away", `document.getElementById('handover').hidden && !document.getElementById('pause').disabled`)

	log.toldOfHandBack(t, "console")
	record := runLogOf(t, runs)
	stopBeforeDone(t, record)
	var by []string
	for _, ev := range record {
		if ev.Kind == runlog.EventHandover {
			by = append(by, ev.Handover.Action+" by "+ev.Handover.By)
		}
	}
	if got := strings.Join(by, ", "); got != "pause by console, hand_back by console" {
		t.Errorf("the record's handover events: %s", got)
	}
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}
