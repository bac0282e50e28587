package report

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// Each turn with an observation carries a map of the world at its end: the
// robot at its pose, each detected object at its position in one scale (y
// up), a wedge per clearance sector coloured by its distance, an object
// not re-observed for three turns greyed, and names as text.
func TestPageDrawsTheWorldPerTurn(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	obs := func(turn int, o *world.Observation) runlog.Line {
		return runlog.Line{Event: runlog.Event{Kind: runlog.EventObservation, Time: t0.Add(time.Duration(turn) * time.Second), Task: 1, Turn: turn, Observation: o}}
	}
	mug := world.Detection{Name: "mug" + hostile, Relation: "on", Target: "table", Position: &world.Point{X: 2, Y: 1}, Visible: true}
	lines := []runlog.Line{
		{Event: runlog.Event{Kind: runlog.EventTaskStart, Time: t0, Task: 1, Text: "Fetch the mug"}},
		obs(1, &world.Observation{Pose: &world.Pose{X: 1, Y: 1, ThetaDeg: 0}, Clearance: world.Clearance{"front": 0.3, "back": 2, "left": 0.8, "right": 1.2},
			Detections: []world.Detection{mug}}),
		obs(2, &world.Observation{Pose: &world.Pose{X: 1, Y: 0, ThetaDeg: 90}}),
		obs(5, &world.Observation{Pose: &world.Pose{X: 0, Y: 0, ThetaDeg: 180}}),
		{Event: runlog.Event{Kind: runlog.EventDone, Time: t0.Add(6 * time.Second), Task: 1, Turn: 5, Done: &runlog.Report{Reason: runlog.DoneFinal, Turns: 5}}},
	}
	_, doc := render(t, writeRun(t, lines, nil))
	maps := map[string]*html.Node{}
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "section" && attr(n, "data-turn") != "" {
			walk(n, func(c *html.Node) {
				if c.Type == html.ElementNode && c.Data == "svg" && strings.Contains(attr(c, "class"), "map") {
					maps[attr(n, "data-turn")] = c
				}
			})
		}
	})
	if len(maps) != 3 {
		t.Fatalf("maps for turns %v, want 1, 2 and 5", maps)
	}
	circle := func(m *html.Node, sel func(*html.Node) bool) (x, y float64, g *html.Node) {
		walk(m, func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "g" && sel(n) && g == nil {
				g = n
				walk(n, func(c *html.Node) {
					if c.Type == html.ElementNode && c.Data == "circle" {
						x, _ = strconv.ParseFloat(attr(c, "cx"), 64)
						y, _ = strconv.ParseFloat(attr(c, "cy"), 64)
					}
				})
			}
		})
		if g == nil {
			t.Fatalf("no such mark in %s", attr(m, "aria-label"))
		}
		return x, y, g
	}
	robot := func(n *html.Node) bool { return attr(n, "data-ref") == "robot" }
	object := func(n *html.Node) bool { return attr(n, "data-object") != "" }
	m1 := maps["1"]
	rx, ry, _ := circle(m1, robot)
	ox, oy, og := circle(m1, object)
	if attr(og, "data-object") != mug.Name || textOf(og) == "" || !strings.Contains(textOf(og), "<script>") {
		t.Errorf("the mug's mark: %q %q", attr(og, "data-object"), textOf(og))
	}
	// The mug is 1 m east of the robot: drawn to its right, level.
	if !(ox-rx > 10) || math.Abs(oy-ry) > 0.01 {
		t.Errorf("the mug drawn at %v,%v from the robot, want to its right", ox-rx, oy-ry)
	}
	classes := map[string]string{}
	walk(m1, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "path" {
			title := textOf(n)
			classes[strings.SplitN(title, ":", 2)[0]] = attr(n, "class")
		}
	})
	if want := map[string]string{"front": "wedge near", "left": "wedge mid", "right": "wedge far", "back": "wedge far"}; len(classes) != 4 ||
		classes["front"] != want["front"] || classes["left"] != want["left"] || classes["right"] != want["right"] {
		t.Errorf("wedges %v, want %v", classes, want)
	}
	if !strings.Contains(attr(m1, "aria-label"), "the robot at (1, 1) heading 0°; 1 object(s); clearance") {
		t.Errorf("turn 1's map label: %q", attr(m1, "aria-label"))
	}
	// Turn 2 has no clearance reading; the mug, seen in turn 1, is fresh.
	// By turn 5 it was not re-observed for 4 turns: stale.
	if _, _, g := circle(maps["2"], object); strings.Contains(attr(g, "class"), "stale") {
		t.Errorf("the mug is stale in turn 2")
	}
	if _, _, g := circle(maps["5"], object); !strings.Contains(attr(g, "class"), "stale") {
		t.Errorf("the mug is not stale in turn 5: %q", attr(g, "class"))
	}
}
