package scenegraph

import (
	"testing"

	"github.com/thea-harness/thea/world"
)

// A drawer a camera saw at turn 1 and only a state report confirms at turn
// 2 (the camera looked away): its state carries turn 2's stamp, its
// position and room keep turn 1's, never a fresh stamp on an old sighting.
func TestStateReportDoesNotRestampASighting(t *testing.T) {
	g := New(0)
	drawers := func(st string) map[string]any { return map[string]any{"drawers": map[string]any{"top_drawer": st}} }
	g.Update(&world.Observation{State: drawers("closed"), Detections: []world.Detection{{Name: "top_drawer", Class: "drawer",
		Camera: "head", Relation: "in", Target: "cabinet", Room: "kitchen", Position: pt(12.6, 4.3)}}}, 1, "observe")
	g.Update(&world.Observation{State: drawers("open")}, 2, "observe")
	want := "- container:top_drawer (drawer): open [observe t2], in place:cabinet, at (12.60, 4.30), room kitchen [observe/head t1]"
	if l := lineOf(g.Brief(BriefLimits{}), "container:top_drawer"); l != want {
		t.Errorf("line\n%s\nwant\n%s", l, want)
	}
}
