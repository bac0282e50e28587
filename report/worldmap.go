package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/thea-harness/thea/world"
)

// The world as a picture, per turn: a top-down map of what the observations
// said up to the end of the turn — the robot with its heading, the detected
// objects and the places they lie on at their positions (greyed once not
// re-observed for staleTurns), the clearance sectors as wedges coloured by
// how close the nearest return is. The console draws the same picture
// (serve/console/world.js); every coordinate is computed here, and the
// template only places them.

// staleTurns is when a fact not re-observed is drawn grey (the spec's
// scene_graph.stale_after_turns default; the run log does not carry it).
const staleTurns = 3

// The map's geometry, in SVG user units and metres.
const (
	mapW, mapPad = 320.0, 18.0
	mapReach     = 1.5 // how far a wedge may reach
	minSpan      = 3.0
)

// WorldMap is one turn's picture.
type WorldMap struct {
	W, H   float64
	Label  string
	Grid   []Seg
	Wedges []Wedge
	Robot  *Marker
	Nose   Seg
	Things []Marker // places, then objects
	// Scale is one grid step long; ScaleX, ScaleY place its label.
	Scale          Seg
	ScaleLabel     string
	ScaleX, ScaleY float64
	// Outside lists what lies beyond the map's frame, with its
	// coordinates (its mark is pinned to the frame's edge).
	Outside []string
}

// Seg is a line.
type Seg struct{ X1, Y1, X2, Y2 float64 }

// Wedge is one clearance sector.
type Wedge struct {
	D     string // SVG path
	Class string // near | mid | far
	Title string
}

// Marker is the robot, an object or a place, where it is drawn.
type Marker struct {
	Kind   string // robot | object | place
	Name   string
	X, Y   float64 // drawn
	R      float64 // the robot's radius
	BX, BY float64 // a place's square's corner
	Stale  bool
	// Outside: beyond the map's frame, drawn at its edge.
	Outside bool
	Anchor  string // its label's text-anchor, when not the start
	Title   string
	TX, TY  float64 // its label
}

type seen struct {
	name string
	x, y float64
	turn int
}

// mapWorld is what the observations said so far.
type mapWorld struct {
	turn      int
	pose      *world.Pose
	clearance world.Clearance
	objects   map[string]seen
	places    map[string]seen
}

func newWorld() *mapWorld { return &mapWorld{objects: map[string]seen{}, places: map[string]seen{}} }

// observe adds one observation taken in turn.
func (w *mapWorld) observe(o *world.Observation, turn int) {
	w.turn = max(w.turn, turn)
	// A non-finite coordinate is an unknown, not a place: such a pose
	// leaves the last known one, such a detection has no position.
	if o.Pose != nil && finite(o.Pose.X, o.Pose.Y, o.Pose.ThetaDeg) {
		p := *o.Pose
		w.pose = &p
	}
	if len(o.Clearance) > 0 {
		w.clearance = o.Clearance
	}
	type sum struct {
		x, y float64
		n    int
	}
	onto := map[string]*sum{}
	for _, d := range o.Detections {
		if d.Position == nil || !finite(d.Position.X, d.Position.Y) {
			continue
		}
		key := d.ID
		if key == "" {
			key = d.Name // a name without an id is one object, where last seen
		}
		w.objects[key] = seen{name: d.Name, x: d.Position.X, y: d.Position.Y, turn: w.turn}
		if d.Target != "" && (d.Relation == "on" || d.Relation == "in") {
			s := onto[d.Target]
			if s == nil {
				s = &sum{}
				onto[d.Target] = s
			}
			s.x, s.y, s.n = s.x+d.Position.X, s.y+d.Position.Y, s.n+1
		}
	}
	for name, s := range onto {
		w.places[name] = seen{name: name, x: s.x / float64(s.n), y: s.y / float64(s.n), turn: w.turn}
	}
}

// picture draws w; nil when nothing has a position yet.
func (w *mapWorld) picture() *WorldMap {
	things := slices.Concat(sortedSeen(w.places), sortedSeen(w.objects))
	pts := make([][2]float64, 0, len(things)+1)
	if w.pose != nil {
		pts = append(pts, [2]float64{w.pose.X, w.pose.Y})
	}
	for _, s := range things {
		pts = append(pts, [2]float64{s.x, s.y})
	}
	if len(pts) == 0 {
		return nil
	}
	anchor := pts[0] // the robot
	if w.pose == nil {
		xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
		for i, p := range pts {
			xs[i], ys[i] = p[0], p[1]
		}
		anchor = [2]float64{median(xs), median(ys)}
	}
	f := newFrame(anchor, pts, mapReach+0.2)
	k := f.k
	wm := &WorldMap{W: mapW, H: r2((f.maxY-f.minY)*k + 2*mapPad)}
	X := func(x float64) float64 { return r2(mapPad + (x-f.minX)*k) }
	Y := func(y float64) float64 { return r2(mapPad + (f.maxY-y)*k) }
	for _, gx := range gridLines(f.minX, f.maxX, f.step) {
		wm.Grid = append(wm.Grid, Seg{X(gx), Y(f.minY), X(gx), Y(f.maxY)})
	}
	for _, gy := range gridLines(f.minY, f.maxY, f.step) {
		wm.Grid = append(wm.Grid, Seg{X(f.minX), Y(gy), X(f.maxX), Y(gy)})
	}
	var words []string
	if p := w.pose; p != nil {
		cx, cy := X(p.X), Y(p.Y)
		names := make([]string, 0, len(w.clearance))
		for n := range w.clearance {
			names = append(names, n)
		}
		slices.Sort(names)
		half := math.Pi / float64(max(len(names), 2))
		for i, n := range names {
			d := w.clearance[n]
			if !finite(d) {
				words = append(words, n+" unknown")
				continue
			}
			mid := (p.ThetaDeg + sectorAngle(n, i, len(names))) * math.Pi / 180
			rad := max(math.Min(d, mapReach), 0) * k
			ax, ay := r2(cx+rad*math.Cos(mid-half)), r2(cy-rad*math.Sin(mid-half))
			bx, by := r2(cx+rad*math.Cos(mid+half)), r2(cy-rad*math.Sin(mid+half))
			cls := "far"
			switch {
			case d < 0.5:
				cls = "near"
			case d < 1:
				cls = "mid"
			}
			wm.Wedges = append(wm.Wedges, Wedge{D: fmt.Sprintf("M%g,%g L%g,%g A%g,%g 0 0 0 %g,%g Z", cx, cy, ax, ay, r2(rad), r2(rad), bx, by),
				Class: cls, Title: fmt.Sprintf("%s: nearest return %g m", n, d)})
			words = append(words, fmt.Sprintf("%s %g m", n, d))
		}
		a := p.ThetaDeg * math.Pi / 180
		body := math.Max(0.18*k, 5)
		wm.Robot = &Marker{Kind: "robot", Name: "robot", X: cx, Y: cy, R: r2(body), Title: fmt.Sprintf("the robot at (%g, %g), heading %g°", r2(p.X), r2(p.Y), r2(p.ThetaDeg))}
		wm.Nose = Seg{cx, cy, r2(cx + 2.2*body*math.Cos(a)), r2(cy - 2.2*body*math.Sin(a))}
	}
	stale := 0
	for i, s := range things {
		kind := "place"
		if i >= len(w.places) {
			kind = "object"
		}
		at := fmt.Sprintf("%s at (%g, %g)", s.name, r2(s.x), r2(s.y))
		mk := Marker{Kind: kind, Name: s.name, X: X(s.x), Y: Y(s.y), Stale: w.turn-s.turn >= staleTurns,
			Title: fmt.Sprintf("%s, seen turn %d", at, s.turn)}
		if !f.contains(s.x, s.y) {
			// Pinned to the edge, towards where it is, and listed.
			px, py := f.pin(s.x, s.y)
			mk.X, mk.Y, mk.Outside = X(px), Y(py), true
			mk.Title = fmt.Sprintf("%s, outside the map, seen turn %d", at, s.turn)
			wm.Outside = append(wm.Outside, at)
		}
		if kind == "object" {
			mk.TX, mk.TY = mk.X+7, mk.Y-6
			if mk.Stale {
				stale++
			}
		} else {
			mk.TX, mk.TY = mk.X+12, mk.Y+14
			mk.BX, mk.BY = mk.X-9, mk.Y-9
		}
		if mk.Outside && s.x > f.maxX {
			// Pinned to the right edge: the name reads leftwards, on the map.
			mk.TX, mk.Anchor = 2*mk.X-mk.TX, "end"
		}
		wm.Things = append(wm.Things, mk)
	}
	wm.Scale = Seg{mapPad, wm.H - 6, r2(mapPad + f.step*k), wm.H - 6}
	wm.ScaleX, wm.ScaleY = wm.Scale.X2+4, wm.H-2
	wm.ScaleLabel = fmt.Sprintf("%g m", f.step)
	label := fmt.Sprintf("Map at turn %d: ", w.turn)
	if p := w.pose; p != nil {
		label += fmt.Sprintf("the robot at (%g, %g) heading %g°; ", r2(p.X), r2(p.Y), r2(p.ThetaDeg))
	}
	label += fmt.Sprintf("%d object(s)", len(w.objects))
	if stale > 0 {
		label += fmt.Sprintf(", %d stale", stale)
	}
	if len(wm.Outside) > 0 {
		label += fmt.Sprintf(", %d outside the map", len(wm.Outside))
	}
	if len(words) > 0 {
		label += "; clearance " + strings.Join(words, ", ")
	}
	wm.Label = label
	return wm
}

func sortedSeen(m map[string]seen) []seen {
	out := make([]seen, 0, len(m))
	for _, s := range m {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b seen) int { return strings.Compare(a.name, b.name) })
	return out
}

// sectorAngle is where a sector points, in degrees counter-clockwise from
// the heading, read from its name; a name no word places is spread evenly
// (as the console does).
func sectorAngle(name string, i, n int) float64 {
	w := strings.ToLower(name)
	has := func(ws ...string) bool {
		return slices.ContainsFunc(ws, func(s string) bool { return strings.Contains(w, s) })
	}
	front, back := has("front", "forward", "ahead"), has("back", "behind", "rear")
	left, right := has("left"), has("right")
	switch {
	case front && left:
		return 45
	case front && right:
		return -45
	case back && left:
		return 135
	case back && right:
		return -135
	case front:
		return 0
	case back:
		return 180
	case left:
		return 90
	case right:
		return -90
	}
	return 360 * float64(i) / float64(n)
}

// r2 rounds to centimetres; beyond 1e12 m there are none to round (and
// v*100 could overflow to Inf).
func r2(v float64) float64 {
	if math.Abs(v) >= 1e12 || !finite(v) {
		return v
	}
	return math.Round(v*100) / 100
}
