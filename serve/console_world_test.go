package serve

import (
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The world as a picture, after the household task: the map draws the robot
// and the objects it detected at the positions the last observation gave
// (in one scale, y up), one wedge per clearance sector; a camera frame opens
// at its full size, Escape closes it; a turn's heading opens that turn's
// frames and its map.
func TestConsoleDrawsTheWorld(t *testing.T) {
	b := newBrowser(t)
	f := startHousehold(t, nil, Config{})
	b.open(f.base)
	b.typeInto("Instruction", "Put the mug in the top drawer")
	b.click("button", "Run")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)

	// The Task Notes show each turn once; a verdict follows the result it
	// judges.
	if got := b.evalString(`[...document.querySelectorAll('#notes-timeline li')].map(li => li.dataset.turn).join(',')`); hasRepeats(strings.Split(got, ",")) {
		t.Errorf("the Task Notes show a turn twice: %s", got)
	}
	if got := b.evalString(`[...document.querySelectorAll('#trace-list section.turn')].map(s => [...s.querySelectorAll('li')].map(li => li.dataset.kind).filter(k => k === 'result' || k === 'verdict').join(' ')).filter(Boolean).join(' | ')`); strings.Contains(got, "verdict result") || !strings.Contains(got, "result verdict") {
		t.Errorf("results and verdicts by turn: %s", got)
	}

	// The last observation with a pose, and where each object was last
	// detected, as the server streamed them.
	var last *world.Observation
	detected := map[string]world.Point{}
	for _, m := range f.events(1, "").rest() {
		ev := decodeAs[runlog.Event](t, m)
		if ev.Kind != runlog.EventObservation || ev.Observation == nil {
			continue
		}
		if ev.Observation.Pose != nil {
			last = ev.Observation
		}
		for _, det := range ev.Observation.Detections {
			if det.Position != nil {
				detected[det.Name] = *det.Position
			}
		}
	}
	if last == nil || len(detected) == 0 {
		t.Fatalf("no observation with a pose (%v), or no detection with a position (%v)", last, detected)
	}
	type mark struct {
		X, Y   float64 // world, as data attributes
		CX, CY float64 // drawn, in the SVG's units
	}
	type drawn struct {
		Scale   float64         `json:"scale"`
		Robot   mark            `json:"robot"`
		Objects map[string]mark `json:"objects"`
		Sectors []string        `json:"sectors"`
	}
	d, err := chromedp.Run(b.ctx, chromedp.Evaluate[drawn](`(() => {
		const svg = document.querySelector('#map svg');
		const at = (g) => { const c = g.querySelector('circle'); return {X: Number(g.dataset.x), Y: Number(g.dataset.y), CX: Number(c.getAttribute('cx')), CY: Number(c.getAttribute('cy'))}; };
		const objects = {};
		for (const g of svg.querySelectorAll('g[data-object]')) objects[g.dataset.object] = at(g);
		return {scale: Number(svg.dataset.scale), robot: at(svg.querySelector('g[data-ref="robot"]')), objects,
			sectors: [...svg.querySelectorAll('path[data-sector]')].map(p => p.dataset.sector)};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.02 }
	if !near(d.Robot.X, last.Pose.X) || !near(d.Robot.Y, last.Pose.Y) {
		t.Errorf("the robot drawn at (%v, %v), observed at (%v, %v)", d.Robot.X, d.Robot.Y, last.Pose.X, last.Pose.Y)
	}
	for name, at := range detected {
		o, ok := d.Objects[name]
		if !ok {
			t.Errorf("the detected %s is not on the map (%v)", name, d.Objects)
			continue
		}
		if !near(o.X, at.X) || !near(o.Y, at.Y) {
			t.Errorf("%s drawn at (%v, %v), last detected at (%v, %v)", name, o.X, o.Y, at.X, at.Y)
		}
		// Where it is drawn against the robot: one scale, y up.
		wantX, wantY := d.Scale*(at.X-last.Pose.X), -d.Scale*(at.Y-last.Pose.Y)
		if math.Abs(o.CX-d.Robot.CX-wantX) > 0.5 || math.Abs(o.CY-d.Robot.CY-wantY) > 0.5 {
			t.Errorf("%s drawn %v,%v from the robot, want %v,%v", name, o.CX-d.Robot.CX, o.CY-d.Robot.CY, wantX, wantY)
		}
	}
	if len(d.Sectors) != len(last.Clearance) {
		t.Errorf("wedges %v for the clearance %v", d.Sectors, last.Clearance)
	}
	b.eval(`document.getElementById('map').closest('section').scrollIntoView({block: 'start'})`)
	screenshotAs(t, b, "console-map.png")

	// A camera's frame at its full size.
	b.click("button", "head camera, turn 10")
	b.waitFor("the frame at full size", `(() => { const i = document.querySelector('#viewer-body figure.full img');
		return !document.getElementById('viewer').hidden && i && i.complete && i.naturalWidth > 0 && i.clientWidth === i.naturalWidth; })()`)
	if got := b.evalString(`document.getElementById('viewer-h').textContent`); got != "head camera, turn 10, full size" {
		t.Errorf("the viewer is titled %q", got)
	}
	screenshotAs(t, b, "console-frame.png")
	b.do("Escape", chromedp.KeyEvent("\x1b"))
	b.waitFor("the viewer closed", `document.getElementById('viewer').hidden`)

	// A turn's frames and its map.
	b.click("button", "Turn 3")
	b.waitFor("the turn's frames", `!document.getElementById('viewer').hidden && document.querySelectorAll('#viewer-body .frames img').length > 0`)
	if got := b.evalString(`[...document.querySelectorAll('#viewer-body figcaption')].map(c => c.textContent).join(' | ')`); !strings.Contains(got, "turn 3") {
		t.Errorf("the turn's frames: %q", got)
	}
	if n := b.evalInt(`document.querySelectorAll('#viewer-body svg.map g[data-ref="robot"]').length`); n != 1 {
		t.Errorf("the turn's map draws %d robots", n)
	}
	b.click("button", "Close")
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}

func hasRepeats(xs []string) bool {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return true
		}
		seen[x] = true
	}
	return false
}
