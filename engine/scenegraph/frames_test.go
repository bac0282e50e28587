package scenegraph

import (
	"testing"

	"github.com/thea-harness/thea/world"
)

// A detection whose position is in another frame than the graph's (a
// camera frame) is kept without its position: it never matches or moves
// an object by camera coordinates read as map ones. One in the graph's
// frame, or with no frame, keeps its position.
func TestDetectionsInAnotherFrameHaveNoPosition(t *testing.T) {
	g := New(3)
	g.Update(&world.Observation{Detections: []world.Detection{
		{Name: "mug", Visible: true, Position: pt(2, 1)},
	}}, 1, "observe")
	g.Update(&world.Observation{Detections: []world.Detection{
		{Name: "mug", Visible: true, Position: pt(0.5, -0.2), Frame: "camera_link"},
		{Name: "bowl", Visible: true, Position: pt(3, 3), Frame: "/map"},
	}}, 2, "observe")
	e := g.Lookup("mug")
	if len(e) != 1 || e[0].Position == nil || *e[0].Position != (world.Point{X: 2, Y: 1}) || e[0].SeenTurn != 2 {
		t.Fatalf("mug: one ref, still at (2, 1), seen again at turn 2: %+v", e)
	}
	if b := g.Lookup("bowl"); len(b) != 1 || b[0].Position == nil || *b[0].Position != (world.Point{X: 3, Y: 3}) {
		t.Fatalf("bowl in the graph's frame keeps its position: %+v", b)
	}
}
