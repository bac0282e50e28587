package sim

import (
	"math"
	"strconv"
)

// Vec is a point or direction in the map frame, metres.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec       { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec       { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(k float64) Vec { return Vec{a.X * k, a.Y * k} }
func (a Vec) Dot(b Vec) float64   { return a.X*b.X + a.Y*b.Y }
func (a Vec) Len() float64        { return math.Hypot(a.X, a.Y) }
func (a Vec) Dist(b Vec) float64  { return a.Sub(b).Len() }
func heading(thetaDeg float64) Vec {
	r := thetaDeg * math.Pi / 180
	return Vec{math.Cos(r), math.Sin(r)}
}
func bearingDeg(from, to Vec) float64 { d := to.Sub(from); return math.Atan2(d.Y, d.X) * 180 / math.Pi }

// normDeg wraps an angle to (-180, 180].
func normDeg(a float64) float64 {
	a = math.Mod(a, 360)
	if a > 180 {
		a -= 360
	} else if a <= -180 {
		a += 360
	}
	return a
}

// Rect is an axis-aligned rectangle: a furniture footprint or a room.
type Rect struct{ Min, Max Vec }

func (r Rect) Center() Vec { return Vec{(r.Min.X + r.Max.X) / 2, (r.Min.Y + r.Max.Y) / 2} }

func (r Rect) Contains(p Vec) bool {
	return p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y
}

// Nearest is the point of the rectangle closest to p (p itself when inside).
func (r Rect) Nearest(p Vec) Vec {
	return Vec{math.Max(r.Min.X, math.Min(p.X, r.Max.X)), math.Max(r.Min.Y, math.Min(p.Y, r.Max.Y))}
}

// Dist is the distance from p to the rectangle, 0 inside.
func (r Rect) Dist(p Vec) float64 { return p.Dist(r.Nearest(p)) }

// Segment is a wall piece with a thickness.
type Segment struct {
	A, B      Vec
	Thickness float64
}

// Dist is the distance from p to the segment's surface (its centre line
// minus half the thickness), never negative.
func (s Segment) Dist(p Vec) float64 {
	return math.Max(0, pointSegDist(p, s.A, s.B)-s.Thickness/2)
}

func pointSegDist(p, a, b Vec) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Dist(a)
	}
	t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	return p.Dist(a.Add(ab.Scale(t)))
}

// segmentsCross reports whether segments p1p2 and q1q2 properly intersect;
// used for line of sight through walls.
func segmentsCross(p1, p2, q1, q2 Vec) bool {
	cross := func(o, a, b Vec) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	d1, d2 := cross(q1, q2, p1), cross(q1, q2, p2)
	d3, d4 := cross(p1, p2, q1), cross(p1, p2, q2)
	return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
}

// Polygon is a simple polygon (a room's outline).
type Polygon []Vec

// Contains uses the even-odd rule.
func (pg Polygon) Contains(p Vec) bool {
	in := false
	for i, j := 0, len(pg)-1; i < len(pg); j, i = i, i+1 {
		a, b := pg[i], pg[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// Bounds is the polygon's bounding rectangle.
func (pg Polygon) Bounds() Rect {
	r := Rect{Min: Vec{math.Inf(1), math.Inf(1)}, Max: Vec{math.Inf(-1), math.Inf(-1)}}
	for _, p := range pg {
		r.Min.X, r.Min.Y = math.Min(r.Min.X, p.X), math.Min(r.Min.Y, p.Y)
		r.Max.X, r.Max.Y = math.Max(r.Max.X, p.X), math.Max(r.Max.Y, p.Y)
	}
	return r
}

// Centroid is the vertex average, good enough to label a room.
func (pg Polygon) Centroid() Vec {
	var c Vec
	for _, p := range pg {
		c = c.Add(p)
	}
	return c.Scale(1 / float64(len(pg)))
}

func rectPolygon(r Rect) Polygon {
	return Polygon{r.Min, {r.Max.X, r.Min.Y}, r.Max, {r.Min.X, r.Max.Y}}
}

// sweepStep is the resolution of a swept-disc cast; the result is refined by
// bisection to well under a millimetre.
const sweepStep = 0.02

// sweep is how far a disc of radius r at p can translate along unit direction
// dir before touching an obstacle, capped at max. clear reports whether a
// disc centre is free of contact.
func sweep(p, dir Vec, max float64, clear func(Vec) bool) float64 {
	if !clear(p) {
		return 0
	}
	lo := 0.0
	for d := sweepStep; ; d += sweepStep {
		if d > max {
			d = max
		}
		if !clear(p.Add(dir.Scale(d))) {
			hi := d
			for range 20 {
				mid := (lo + hi) / 2
				if clear(p.Add(dir.Scale(mid))) {
					lo = mid
				} else {
					hi = mid
				}
			}
			return lo
		}
		lo = d
		if d >= max {
			return max
		}
	}
}

// fmtM formats a distance for a reason text: "1.10 m".
func fmtM(d float64) string { return strconv.FormatFloat(d, 'f', 2, 64) + " m" }
