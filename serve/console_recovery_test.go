package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The operator's way back after a stop and after a killed back-end: the
// indicator says "live" while idle; a Clear is refused while the drive
// moves; once the task has stopped, the banner says in words that the
// robot's state is uncertain, which back-end and since when, the top says
// physical calls are refused (not a bare "idle"), and Clear, once confirmed,
// makes the state certain again, on the record of the next task.
func TestConsoleClearsAfterAStop(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		name, event string
		deaf        bool
		shot        string
	}{
		{name: "an interrupted drive", event: "stop: drive", shot: "console-recovery.png"},
		{name: "a killed back-end", event: "backend_killed: drive", deaf: true},
	} {
		spec, started := driveSpec(t, t.TempDir())
		if c.deaf {
			spec, started = deafDriveSpec(t, t.TempDir())
		}
		f := startSpec(t, spec, driveTurns+"- text: \"Checked.\"\n", Config{})
		b.open(f.base)
		b.waitFor("the indicator live while idle", `document.getElementById('link').textContent === 'live'`)
		if s := b.evalString(`document.getElementById('state').textContent`); s != "idle" {
			t.Errorf("%s: state %q before any task", c.name, s)
		}

		b.typeInto("Instruction", "Drive on")
		b.click("button", "Run")
		b.waitFor("the motion's call", traceText+`.includes('→ drive')`)
		waitFile(t, started)
		var refusal clearRefusal
		if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &refusal); code != http.StatusConflict {
			t.Errorf("%s: a clear while the drive moves: %d %+v, want 409", c.name, code, refusal)
		}
		b.click("checkbox", "Stop interrupts the running call")
		b.click("button", "Stop")
		b.waitFor("the cancelled report", `document.getElementById('report-reason').textContent === 'cancelled'`)
		b.waitFor("the recovery banner", `!document.getElementById('recovery').hidden && document.getElementById('recovery-h').textContent.includes('uncertain')`)
		b.waitFor("the motion ended", `!document.getElementById('clear').disabled`)
		// The report in full: the Task Notes cut the failed call's reason.
		if got := b.evalString(`document.getElementById('report-text').textContent`); strings.Contains(got, "chars omitted") ||
			!strings.Contains(got, "drive: failed: drive was cancelled before it finished; its effect is unknown") {
			t.Errorf("%s: the report pane shows %q", c.name, got)
		}
		banner := b.evalString(`document.getElementById('recovery').textContent`)
		for _, want := range []string{"The robot’s state is uncertain", "Back-end: base", "Since: ", "drive was cancelled on the base back-end",
			"physical calls are refused", "task 1 was stopped"} {
			if !strings.Contains(banner, want) {
				t.Errorf("%s: the banner says %q, want %q in it", c.name, banner, want)
			}
		}
		if s := b.evalString(`document.getElementById('state').textContent`); s != "idle · physical calls refused" {
			t.Errorf("%s: state %q while physical calls are refused", c.name, s)
		}
		if b.evalString(`document.getElementById('physical-note').hidden ? '' : document.getElementById('physical-note').textContent`) == "" {
			t.Errorf("%s: nothing beside Run says physical calls are refused", c.name)
		}
		if got := b.evalString(traceText); !strings.Contains(got, c.event) {
			t.Errorf("%s: the trace lacks %q", c.name, c.event)
		}
		if c.shot != "" {
			b.eval(`window.scrollTo(0, 0)`)
			screenshotAs(t, b, c.shot)
		}

		b.click("button", "Clear…")
		b.do("the confirmation", chromedp.WaitVisible("", byName("button", "I have checked the robot: clear")))
		if id := b.evalString(`document.activeElement.id`); id != "clear-no" {
			t.Errorf("%s: the focus is on %q when the clear asks, want Cancel", c.name, id)
		}
		b.click("button", "I have checked the robot: clear")
		b.waitFor("the banner gone", `document.getElementById('recovery').hidden`)
		b.waitFor("the state certain", `document.getElementById('state').textContent === 'idle'`)
		if msg := b.evalString(`document.getElementById('control-msg').textContent`); !strings.HasPrefix(msg, "Cleared") {
			t.Errorf("%s: after the clear the page says %q", c.name, msg)
		}
		b.typeInto("Instruction", "Carry on")
		b.click("button", "Run")
		b.waitFor("the next task's report", `document.getElementById('report-reason').textContent === 'final_answer'`)
		if got := b.evalString(traceText); !strings.Contains(got, "operator_clear: the operator cleared") {
			t.Errorf("%s: the next task's trace does not record the clear: %q", c.name, got)
		}
		b.traceIDs()
		if p := b.errors(); len(p) > 0 {
			t.Errorf("%s: errors on the page: %q", c.name, p)
		}
	}
}
