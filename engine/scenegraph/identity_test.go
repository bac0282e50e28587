package scenegraph

import (
	"slices"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func refsOf(g *Graph, name string) []string {
	var out []string
	for _, e := range g.Lookup(name) {
		out = append(out, e.Ref)
	}
	slices.Sort(out)
	return out
}

// A back-end that reports neither a position nor a support (a door seen by
// a quadruped's camera) keeps one ref per object across observations, not a
// new obj:front_door#N every turn.
func TestDetectionWithoutPositionOrSupportKeepsItsRef(t *testing.T) {
	g := New(10)
	door := schema.Detection{Name: "front_door", Class: "door", Camera: "front", Room: "hall", Visible: true}
	for turn := 1; turn <= 10; turn++ {
		d := door
		if turn%2 == 0 {
			d.Camera = "rear" // another camera: still the one door
		}
		g.Update(&schema.Observation{Detections: []schema.Detection{d}}, turn, "observe")
	}
	if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door"}) {
		t.Fatalf("refs after ten sightings: %v, want one", got)
	}
	// Two doors of one name in one observation are two refs, and keep them.
	g.Update(&schema.Observation{Detections: []schema.Detection{door, door}}, 11, "observe")
	g.Update(&schema.Observation{Detections: []schema.Detection{door, door}}, 12, "observe")
	if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door", "obj:front_door#2"}) {
		t.Fatalf("two doors seen together: %v", got)
	}
	// A door of that name in another room is another door.
	other := door
	other.Room = "garage"
	g.Update(&schema.Observation{Detections: []schema.Detection{other}}, 13, "observe")
	if n := len(refsOf(g, "front_door")); n != 3 {
		t.Fatalf("a front_door in the garage: %d refs, want 3", n)
	}
}

// A back-end's stable id decides identity: the object of an id keeps its ref
// wherever it is seen, and two ids are two refs even at one spot.
func TestDetectionIDKeepsIdentity(t *testing.T) {
	g := New(10)
	person := func(id string, x float64) schema.Detection {
		return schema.Detection{ID: id, Name: "person", Class: "person", Camera: "front", Position: pt(x, 0)}
	}
	g.Update(&schema.Observation{Detections: []schema.Detection{person("track-7", 1), person("track-9", 5)}}, 1, "observe")
	// They swap places (3 m apart, beyond the match radius): ids win over
	// positions, and the order of the detections does not matter.
	g.Update(&schema.Observation{Detections: []schema.Detection{person("track-9", 1), person("track-7", 5)}}, 2, "observe")
	if got := refsOf(g, "person"); !slices.Equal(got, []string{"obj:person", "obj:person#2"}) {
		t.Fatalf("refs: %v", got)
	}
	if e := get(t, g, "obj:person"); e.Position == nil || e.Position.X != 5 {
		t.Fatalf("track-7 (obj:person) moved to x 5: %+v", e)
	}
	if e := get(t, g, "obj:person#2"); e.Position == nil || e.Position.X != 1 {
		t.Fatalf("track-9 (obj:person#2) moved to x 1: %+v", e)
	}
	// Two cameras reporting one id are one sighting; a new id at the spot of
	// a known one is a new object.
	a, b := person("track-7", 5), person("track-7", 5.1)
	b.Camera = "rear"
	g.Update(&schema.Observation{Detections: []schema.Detection{a, b, person("track-11", 1)}}, 3, "observe")
	if got := refsOf(g, "person"); len(got) != 3 {
		t.Fatalf("after a new track at a known spot: %v, want 3 refs", got)
	}
	if e := get(t, g, "obj:person"); e.Source != "observe/front+rear t3" {
		t.Fatalf("one id seen by two cameras: %+v", e)
	}
}
