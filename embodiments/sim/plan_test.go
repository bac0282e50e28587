package sim

import (
	"math"
	"testing"
)

func household(t testing.TB) *World {
	t.Helper()
	w, err := LoadWorld(t.Context(), "../../examples/household/world.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestPlanThroughDoorway: from the bedroom to the kitchen the path must pass
// both doorways, never enter an obstacle, and be about as long as the
// straight line (the doorways are on it).
func TestPlanThroughDoorway(t *testing.T) {
	w := household(t)
	g := newGrid(w)
	start, goal := Vec{3, 2.5}, Vec{10, 2.5}
	path, length, found := g.plan(start, goal)
	if !found {
		t.Fatal("no path from bedroom to kitchen")
	}
	if length < 7 || length > 7.5 {
		t.Errorf("path length %v, want about 7", length)
	}
	for _, p := range path {
		if !w.free(p) {
			t.Fatalf("waypoint %v touches an obstacle", p)
		}
	}
	if path[0] != start || path[len(path)-1] != goal {
		t.Errorf("path runs %v..%v", path[0], path[len(path)-1])
	}
}

// TestPlanDetour: from the table's west side to its east side the path must
// go around it.
func TestPlanDetour(t *testing.T) {
	w := household(t)
	g := newGrid(w)
	_, length, found := g.plan(Vec{10.05, 2.5}, Vec{12.95, 2.5})
	if !found {
		t.Fatal("no path around the table")
	}
	if straight := 2.9; length <= straight+0.5 {
		t.Errorf("path length %v: it cannot cross the table (straight line %v)", length, straight)
	}
}

func TestPlanNoPath(t *testing.T) {
	w, err := LoadWorld(t.Context(), "testdata/flaky.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, found := newGrid(w).plan(Vec{1, 2}, Vec{5, 3}); found {
		t.Fatal("found a path into the sealed closet")
	}
}

func TestClearance(t *testing.T) {
	s := newSimulator(household(t), 1)
	s.pose = Pose{Vec{10.05, 2.5}, 0}
	for rel, want := range map[float64]float64{0: 0.6, 90: 2.2, -90: 2.2, 180: 5} {
		if got := s.clearance(rel); math.Abs(got-want) > 1e-3 {
			t.Errorf("clearance at %v° = %v, want %v", rel, got, want)
		}
	}
}
