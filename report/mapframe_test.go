package report

import (
	"fmt"
	"html"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// at most this many grid lines per axis, whatever the coordinates.
const gridBound = 20

// A back-end's coordinates cannot size the map: a detection 2e5 m, 1e9 m
// or 1e300 m away (either side) gives at most 20 grid lines per axis, the
// robot and the mug a metre from it stay drawn a metre apart at a useful
// scale, and the far object is pinned to the map's edge and listed with
// its coordinates. (Before: one grid line per metre between the extremes,
// 200,000 lines at 2e5 m, out of memory at 1e9 m.)
func TestMapGridIsBoundedWhateverTheCoordinates(t *testing.T) {
	for _, far := range []world.Point{{X: 2e5, Y: 0.5}, {X: 1e9, Y: 0.5}, {X: -1e9, Y: 0.5}, {X: 0.5, Y: 1e9}, {X: 1e300, Y: -1e300}} {
		t.Run(fmt.Sprintf("%g,%g", far.X, far.Y), func(t *testing.T) {
			w := newWorld()
			w.observe(&world.Observation{Pose: &world.Pose{X: 1, Y: 1}, Clearance: world.Clearance{"front": 0.4},
				Detections: []world.Detection{
					{Name: "mug", Position: &world.Point{X: 2, Y: 1}},
					{Name: "beacon", Position: &far},
				}}, 1)
			m := w.picture()
			checkMap(t, m)
			robot, mug, beacon := m.Robot, thing(t, m, "mug"), thing(t, m, "beacon")
			if d := mug.X - robot.X; d < 10 || math.Abs(mug.Y-robot.Y) > 0.01 {
				t.Errorf("the mug, 1 m east of the robot, drawn %v units right and %v down: the scale collapsed", d, mug.Y-robot.Y)
			}
			if mug.Outside || !beacon.Outside {
				t.Errorf("outside: mug %v, beacon %v; want only the beacon", mug.Outside, beacon.Outside)
			}
			want := fmt.Sprintf("beacon at (%g, %g)", far.X, far.Y)
			if len(m.Outside) != 1 || m.Outside[0] != want || !strings.Contains(beacon.Title, want) {
				t.Errorf("listed outside %q, title %q; want %q", m.Outside, beacon.Title, want)
			}
			if east := far.X > 1e3; east != (beacon.Anchor == "end") {
				t.Errorf("the beacon's name anchored %q at %v; a name pinned to the right edge reads leftwards", beacon.Anchor, beacon.TX)
			}
			if !strings.Contains(m.Label, "1 outside the map") {
				t.Errorf("label %q does not say one object is outside", m.Label)
			}
		})
	}
}

// A NaN or an infinity is an unknown, never a coordinate: a pose with one
// leaves the last known pose, a detection with one is not drawn, a
// clearance reading with one draws no wedge and reads "unknown"; no NaN or
// Inf reaches the picture.
func TestMapSkipsNonFiniteValues(t *testing.T) {
	w := newWorld()
	w.observe(&world.Observation{Pose: &world.Pose{X: 1, Y: 1}}, 1)
	nan, inf := math.NaN(), math.Inf(1)
	w.observe(&world.Observation{
		Pose:      &world.Pose{X: nan, Y: 2, ThetaDeg: inf},
		Clearance: world.Clearance{"front": nan, "back": inf, "left": 0.7},
		Detections: []world.Detection{
			{Name: "ghost", Position: &world.Point{X: nan, Y: 0}},
			{Name: "void", Position: &world.Point{X: 1, Y: math.Inf(-1)}},
			{Name: "cup", Position: &world.Point{X: 1.5, Y: 1}},
		}}, 2)
	m := w.picture()
	checkMap(t, m)
	if !strings.Contains(m.Robot.Title, "the robot at (1, 1)") {
		t.Errorf("robot %q, want the last finite pose (1, 1)", m.Robot.Title)
	}
	if len(m.Things) != 1 || m.Things[0].Name != "cup" {
		t.Errorf("things drawn %+v, want only the cup", m.Things)
	}
	if len(m.Wedges) != 1 || !strings.Contains(m.Label, "front unknown") {
		t.Errorf("%d wedges, label %q; want one wedge (left), front unknown", len(m.Wedges), m.Label)
	}
}

// The grid's step is 1, 2 or 5 × 10^k metres, at least 1 m, and at most 20
// lines cross any span, also where adding a step no longer changes a
// float (1e17 m).
func TestGridStep(t *testing.T) {
	for _, c := range []struct{ lo, hi, step float64 }{
		{-1.7, 1.3, 1}, {0, 19, 1}, {0, 20, 2}, {-51.7, 51.7, 10}, {0, 2e5, 20000}, {1e9, 1e9 + 3, 1},
	} {
		if got := gridStep(c.hi - c.lo); got != c.step {
			t.Errorf("gridStep(%g) = %g, want %g", c.hi-c.lo, got, c.step)
		}
	}
	for _, span := range []float64{0, 1, 3, 19.5, 38.1, 99, 1234.5, 2e5, 1e9, 1e300, math.MaxFloat64, math.Inf(1), math.NaN()} {
		step := gridStep(span)
		mant := step / math.Pow(10, math.Floor(math.Log10(step)))
		if step < 1 || (math.Abs(mant-1) > 1e-9 && math.Abs(mant-2) > 1e-9 && math.Abs(mant-5) > 1e-9 && step != math.MaxFloat64) {
			t.Errorf("gridStep(%g) = %g, not 1, 2 or 5 × 10^k ≥ 1", span, step)
		}
		for _, lo := range []float64{-span / 2, 0, 1e17, -1e300} {
			if n := len(gridLines(lo, lo+span, step)); n > gridBound {
				t.Errorf("gridLines(%g, %g+%g) = %d lines", lo, lo, span, n)
			}
		}
	}
}

// The report of a run whose back-end reports absurd coordinates stays
// small: 30 turns, each observing the robot, a mug beside it and objects
// 1e9 m, 2e5 m and 1e300 m away, give a page under 256 KB (before: out of
// memory).
func TestReportOfFarCoordinatesStaysSmall(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	lines := []runlog.Line{{Event: runlog.Event{Kind: runlog.EventTaskStart, Time: t0, Task: 1, Text: "Look around"}}}
	const turns = 30
	for turn := 1; turn <= turns; turn++ {
		lines = append(lines, runlog.Line{Event: runlog.Event{Kind: runlog.EventObservation, Time: t0.Add(time.Duration(turn) * time.Second), Task: 1, Turn: turn,
			Observation: &world.Observation{Pose: &world.Pose{X: float64(turn) / 10, Y: 0}, Detections: []world.Detection{
				{Name: "mug", Position: &world.Point{X: 1, Y: 1}},
				{Name: "far", Position: &world.Point{X: 1e9, Y: -3}},
				{Name: "farther", Position: &world.Point{X: -2e5, Y: 1e300}},
				{Name: "corner", Position: &world.Point{X: 1e300, Y: 1e300}},
			}}}})
	}
	lines = append(lines, runlog.Line{Event: runlog.Event{Kind: runlog.EventDone, Time: t0.Add(time.Minute), Task: 1, Turn: turns, Done: &runlog.Report{Reason: runlog.DoneFinal, Turns: turns}}})
	page, _ := render(t, writeRun(t, lines, nil))
	const bound = 256 << 10
	if len(page) > bound {
		t.Errorf("the page is %d bytes, want under %d", len(page), bound)
	}
	if n := strings.Count(page, `class="mgrid"`); n > turns*2*gridBound {
		t.Errorf("%d grid lines in %d maps", n, turns)
	}
	if !strings.Contains(html.UnescapeString(page), "outside the map: corner at (1e+300, 1e+300), far at (1e+09, -3), farther at (-200000, 1e+300)") {
		i := strings.Index(page, "outside the map")
		t.Errorf("the page does not list what lies outside the map: %.300s", page[max(i, 0):])
	}
	t.Logf("%d turns with objects up to 1e300 m away: a page of %d bytes, %d grid lines", turns, len(page), strings.Count(page, `class="mgrid"`))
}

// checkMap: every number of m is finite, at most gridBound grid lines per
// axis, and every mark lies on the picture.
func checkMap(t *testing.T, m *WorldMap) {
	t.Helper()
	if m == nil {
		t.Fatal("no map")
	}
	var vertical, horizontal int
	nums := []float64{m.W, m.H, m.Scale.X1, m.Scale.X2, m.Scale.Y1, m.ScaleX, m.ScaleY, m.Nose.X1, m.Nose.Y1, m.Nose.X2, m.Nose.Y2}
	for _, g := range m.Grid {
		if g.X1 == g.X2 {
			vertical++
		} else {
			horizontal++
		}
		nums = append(nums, g.X1, g.Y1, g.X2, g.Y2)
	}
	if vertical > gridBound || horizontal > gridBound {
		t.Errorf("%d vertical and %d horizontal grid lines, want at most %d each", vertical, horizontal, gridBound)
	}
	marks := m.Things
	if m.Robot != nil {
		marks = append(marks, *m.Robot)
	}
	for _, k := range marks {
		nums = append(nums, k.X, k.Y, k.R, k.BX, k.BY, k.TX, k.TY)
		if k.X < 0 || k.X > m.W || k.Y < 0 || k.Y > m.H {
			t.Errorf("%s drawn at (%v, %v), off the %v×%v picture", k.Name, k.X, k.Y, m.W, m.H)
		}
	}
	for _, v := range nums {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("a non-finite number in the map: %+v", m)
		}
	}
	text := m.Label + strings.Join(m.Outside, " ")
	for _, w := range m.Wedges {
		text += w.D + w.Title
	}
	for _, k := range marks {
		text += k.Title
	}
	if strings.Contains(text, "NaN") || strings.Contains(text, "Inf") {
		t.Errorf("a non-finite number in the map's text: %s", text)
	}
}

func thing(t *testing.T, m *WorldMap, name string) Marker {
	t.Helper()
	for _, k := range m.Things {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("%s is not on the map", name)
	return Marker{}
}
