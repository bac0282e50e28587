package sim

import (
	"math"
	"testing"
)

func TestSegmentDist(t *testing.T) {
	s := Segment{Vec{0, 0}, Vec{2, 0}, 0.2}
	for _, tc := range []struct {
		p    Vec
		want float64
	}{
		{Vec{1, 1}, 0.9},  // above the middle, minus half the thickness
		{Vec{3, 0}, 0.9},  // beyond the end
		{Vec{1, 0.05}, 0}, // inside the wall
		{Vec{-1, -1}, math.Sqrt2 - 0.1},
	} {
		if got := s.Dist(tc.p); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Dist(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestRect(t *testing.T) {
	r := Rect{Vec{0, 0}, Vec{2, 1}}
	if got := r.Dist(Vec{3, 2}); math.Abs(got-math.Sqrt2) > 1e-9 {
		t.Errorf("Dist corner = %v", got)
	}
	if got := r.Nearest(Vec{1, -3}); got != (Vec{1, 0}) {
		t.Errorf("Nearest = %v", got)
	}
	if r.Dist(Vec{1, 0.5}) != 0 || !r.Contains(Vec{2, 1}) || r.Contains(Vec{2.01, 1}) {
		t.Error("inside points")
	}
}

func TestPolygonContains(t *testing.T) {
	// An L-shaped room: the notch at the top right is outside.
	l := Polygon{{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}}
	for p, want := range map[Vec]bool{{1, 1}: true, {3, 1}: true, {1, 3}: true, {3, 3}: false, {5, 1}: false} {
		if l.Contains(p) != want {
			t.Errorf("Contains(%v) = %v", p, !want)
		}
	}
}

func TestSegmentsCross(t *testing.T) {
	if !segmentsCross(Vec{0, 0}, Vec{2, 2}, Vec{0, 2}, Vec{2, 0}) {
		t.Error("an X must cross")
	}
	if segmentsCross(Vec{0, 0}, Vec{1, 1}, Vec{0, 2}, Vec{2, 2}) {
		t.Error("disjoint segments must not cross")
	}
}

func TestNormDeg(t *testing.T) {
	for in, want := range map[float64]float64{0: 0, 180: 180, -180: 180, 270: -90, -270: 90, 720: 0, 359: -1} {
		if got := normDeg(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("normDeg(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestSweep checks the swept disc against a wall ahead and a corner off the
// centre line, which a plain ray would miss.
func TestSweep(t *testing.T) {
	wall := Segment{Vec{3, -5}, Vec{3, 5}, 0}
	clearOf := func(segs ...Segment) func(Vec) bool {
		return func(p Vec) bool {
			for _, s := range segs {
				if s.Dist(p) < 0.25 {
					return false
				}
			}
			return true
		}
	}
	if got := sweep(Vec{0, 0}, Vec{1, 0}, 5, clearOf(wall)); math.Abs(got-2.75) > 1e-4 {
		t.Errorf("sweep to wall = %v, want 2.75", got)
	}
	if got := sweep(Vec{0, 0}, Vec{1, 0}, 1, clearOf(wall)); got != 1 {
		t.Errorf("sweep capped = %v, want 1", got)
	}
	// A post 0.2 m off the centre line still stops a 0.25 m disc.
	post := Segment{Vec{2, 0.2}, Vec{2, 1}, 0}
	want := 2 - math.Sqrt(0.25*0.25-0.2*0.2)
	if got := sweep(Vec{0, 0}, Vec{1, 0}, 5, clearOf(post)); math.Abs(got-want) > 1e-4 {
		t.Errorf("sweep to off-centre post = %v, want %v", got, want)
	}
	if got := sweep(Vec{3, 0}, Vec{1, 0}, 5, clearOf(wall)); got != 0 {
		t.Errorf("sweep from inside an obstacle = %v, want 0", got)
	}
}
