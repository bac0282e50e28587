package scenegraph

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func TestGraphUpdateBriefAndStaleness(t *testing.T) {
	g := New(2)
	g.Update([]schema.Detection{{Name: "mug", Class: "cup", Camera: "head", Relation: "on", Target: "table", Room: "kitchen"}}, 1, "sim.observe")
	g.Update([]schema.Detection{{Name: "plate", Class: "dish", Room: "kitchen"}, {Name: ""}}, 2, "sim.observe")
	if g.Len() != 2 {
		t.Fatalf("Len = %d, want 2 (nameless detections ignored)", g.Len())
	}
	g.Advance(3)
	brief := g.Brief(10)
	want := `Scene Graph Brief (turn 3, 2 objects):
- obj:plate (dish) in room kitchen [src sim.observe, seen turn 2]
- obj:mug (cup) on table in room kitchen [src sim.observe/head, seen turn 1, stale]`
	if brief != want {
		t.Fatalf("Brief:\n%s\nwant:\n%s", brief, want)
	}
	// Re-observing refreshes and keeps known fields a new detection omits.
	g.Update([]schema.Detection{{Name: "mug", Relation: "in", Target: "drawer"}}, 4, "sim.observe")
	e := g.Lookup("mug")
	if len(e) != 1 || e[0].Stale || e[0].Target != "drawer" || e[0].Class != "cup" || e[0].SeenTurn != 4 {
		t.Fatalf("after re-observation: %+v", e)
	}
}

func TestBriefIsBounded(t *testing.T) {
	g := New(0)
	for i, n := range []string{"a", "b", "c", "d"} {
		g.Update([]schema.Detection{{Name: n}}, i+1, "obs")
	}
	b := g.Brief(2)
	if strings.Count(b, "\n- ") != 2 || !strings.Contains(b, "(2 more; ask scene lookup for detail)") || !strings.Contains(b, "obj:d") {
		t.Fatalf("bounded brief:\n%s", b)
	}
	if !strings.Contains(New(0).Brief(3), "no objects observed yet") {
		t.Fatal("empty brief must say so")
	}
}

func TestLookupMatchesNameClassRoomAndRef(t *testing.T) {
	g := New(0)
	g.Update([]schema.Detection{{Name: "red_mug", Class: "cup", Room: "kitchen"}, {Name: "book", Class: "book", Room: "study"}}, 1, "obs")
	for q, want := range map[string]int{"mug": 1, "CUP": 1, "study": 1, "obj:book": 1, "": 2, "sofa": 0} {
		if got := len(g.Lookup(q)); got != want {
			t.Errorf("Lookup(%q) = %d entries, want %d", q, got, want)
		}
	}
}
