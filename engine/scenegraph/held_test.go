package scenegraph

import (
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/world"
)

// A held object is where the robot is: carried from the kitchen to the
// living room, its line states no room of its own (the robot's line says
// where), a look-up by room finds it with the robot, and put down it is in
// the room it was put down in.
func TestHeldObjectIsWhereTheRobotIs(t *testing.T) {
	g := New(0)
	held := &world.Observation{Pose: &world.Pose{X: 10, Y: 2.5, Room: "kitchen"}, Held: "mug",
		Detections: []world.Detection{{Name: "mug", Camera: "wrist", Room: "kitchen", Position: pt(10.3, 2.5)}}}
	held.SetKnown(world.FieldHeld)
	g.Update(held, 1, "observe")
	moved := &world.Observation{Pose: &world.Pose{X: 4, Y: 2.5, Room: "living_room"}, Held: "mug"}
	moved.SetKnown(world.FieldHeld)
	g.Update(moved, 2, "observe")
	b := g.Brief(BriefLimits{})
	if !strings.Contains(b, "robot: in living_room at (4.00, 2.50)") || !strings.Contains(b, "holding obj:mug [observe t2]") {
		t.Fatalf("the robot's line:\n%s", b)
	}
	if l := lineOf(b, "obj:mug"); l != "- obj:mug: held by robot [observe t2]" {
		t.Errorf("a held object's line %q, want it held by robot with no room or position of its own", l)
	}
	refs := func(q string) []string {
		var out []string
		for _, e := range g.Lookup(q) {
			out = append(out, e.Ref)
		}
		return out
	}
	if !slices.Contains(refs("living_room"), "obj:mug") || slices.Contains(refs("kitchen"), "obj:mug") {
		t.Errorf("look-up by room: living_room %v, kitchen %v; the mug is carried in the living room", refs("living_room"), refs("kitchen"))
	}
	if e, _ := g.Get("obj:mug"); e.Room != "living_room" || e.Position != nil {
		t.Errorf("held entry %+v: room living_room, no position of its own", e)
	}
	down := &world.Observation{Pose: &world.Pose{X: 4, Y: 2.5, Room: "living_room"}}
	down.SetKnown(world.FieldHeld)
	g.Update(down, 3, "observe")
	if e, _ := g.Get("obj:mug"); e.Room != "living_room" || e.Position != nil {
		t.Errorf("released entry %+v: put down in the living room, its position not seen since", e)
	}
}
