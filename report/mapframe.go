package report

import (
	"math"
	"slices"
)

// A map's frame: which part of the world it shows, at what scale, and its
// grid. A back-end may report any coordinate (a detection 1e9 m away, a
// pose in another frame), so nothing here grows with the coordinates: the
// map shows a window of at most frameWindow metres either side of the
// robot, whatever lies beyond is pinned to the frame's edge and listed
// with its coordinates, and the grid has at most maxGridLines lines per
// axis. Scaling to fit everything instead would shrink the robot's
// surroundings to a dot whenever one reading is absurd; the window keeps
// the picture about the robot and still says where the rest is. The
// console applies the same rule (serve/console/world.js).

const (
	// frameWindow is how far from the robot (or, without a pose, from the
	// median of what was seen) the map reaches, in metres each way:
	// a house or a warehouse aisle fits, a wrong frame does not.
	frameWindow = 50.0
	// maxGridLines bounds the grid's lines per axis.
	maxGridLines = 20
)

// frame is the part of the world a map shows, in metres, and its scale in
// SVG units per metre.
type frame struct {
	minX, maxX, minY, maxY float64
	k                      float64
	step                   float64 // the grid's spacing
}

// newFrame fits the points within frameWindow of anchor, with margin m
// around them, into a map mapW wide.
func newFrame(anchor [2]float64, pts [][2]float64, m float64) frame {
	f := frame{minX: anchor[0], maxX: anchor[0], minY: anchor[1], maxY: anchor[1]}
	for _, p := range pts {
		if near(anchor, p) {
			f.minX, f.maxX = min(f.minX, p[0]), max(f.maxX, p[0])
			f.minY, f.maxY = min(f.minY, p[1]), max(f.maxY, p[1])
		}
	}
	f.minX, f.maxX, f.minY, f.maxY = f.minX-m, f.maxX+m, f.minY-m, f.maxY+m
	span := max(f.maxX-f.minX, f.maxY-f.minY, minSpan)
	f.k = (mapW - 2*mapPad) / span
	f.step = gridStep(span)
	return f
}

// near: p lies within frameWindow of anchor on both axes.
func near(anchor, p [2]float64) bool {
	return math.Abs(p[0]-anchor[0]) <= frameWindow && math.Abs(p[1]-anchor[1]) <= frameWindow
}

// contains: p lies in the frame.
func (f frame) contains(x, y float64) bool {
	return x >= f.minX && x <= f.maxX && y >= f.minY && y <= f.maxY
}

// pin is where a point outside the frame is drawn: the nearest point of
// the frame's edge.
func (f frame) pin(x, y float64) (float64, float64) {
	return min(max(x, f.minX), f.maxX), min(max(y, f.minY), f.maxY)
}

// gridStep is the grid's spacing for a span of metres: 1, 2 or 5 × 10^k
// metres, at least 1 m, so that at most maxGridLines lines cross it.
func gridStep(span float64) float64 {
	need := span / (maxGridLines - 1)
	if !(need > 1) { // also NaN
		return 1
	}
	if math.IsInf(need, 0) {
		return math.MaxFloat64
	}
	p := math.Pow(10, math.Floor(math.Log10(need)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= need {
			return m * p
		}
	}
	return 10 * p
}

// gridLines are the multiples of step in [lo, hi], at most maxGridLines of
// them. Counted by index, not by adding step: at 1e17 m adding 1 m changes
// nothing, and a loop waiting to pass hi would never end.
func gridLines(lo, hi, step float64) []float64 {
	first := math.Ceil(lo/step) * step
	n := math.Floor((hi-first)/step) + 1
	if !(n >= 1) { // also NaN
		return nil
	}
	count := int(min(n, maxGridLines))
	out := make([]float64, 0, count)
	for i := range count {
		v := first + float64(i)*step
		if v > hi || math.IsInf(v, 0) {
			break
		}
		out = append(out, v)
	}
	return slices.Compact(out)
}

// finite: both coordinates are numbers; a back-end's NaN or Inf is an
// unknown position, never drawn.
func finite(vs ...float64) bool {
	return !slices.ContainsFunc(vs, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) })
}

// median of vs (not empty), the anchor when no pose is known: one absurd
// detection cannot move it.
func median(vs []float64) float64 {
	s := slices.Sorted(slices.Values(vs))
	return s[len(s)/2]
}
