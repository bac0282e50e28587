package scenegraph

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/world"
)

// What the look-up tools return counts the same clock as the Brief: the
// current task's turns, and an earlier task's fact names that task.
func TestLookupsCountTheTasksTurns(t *testing.T) {
	g := New(0)
	g.BeginTask(1, 0)
	g.Update(&world.Observation{Pose: &world.Pose{X: 1, Y: 1, Room: "kitchen"},
		Detections: []world.Detection{{Name: "mug", Camera: "head", Relation: "on", Target: "table", Room: "kitchen"}}}, 3, "observe")
	g.BeginTask(2, 4) // task 1 ran turns 1-4; task 2's turn 1 is the session's 5
	g.Update(&world.Observation{Pose: &world.Pose{X: 1, Y: 1, Room: "kitchen"},
		Detections: []world.Detection{{Name: "plate", Camera: "head", Room: "kitchen"}}}, 6, "observe")
	if b := g.Brief(BriefLimits{}); !strings.HasPrefix(b, "Scene Graph Brief (turn 2,") ||
		!strings.Contains(b, "- obj:mug: on place:table, room kitchen [observe/head, task 1]") ||
		!strings.Contains(b, "- obj:plate: room kitchen [observe/head t2]") {
		t.Errorf("Brief:\n%s", b)
	}
	if e, _ := g.Get("obj:mug"); e.SeenTurn != 0 || e.SeenTask != 1 || e.Source != "observe/head, task 1" {
		t.Errorf("mug entry %+v: seen in task 1", e)
	}
	if e, _ := g.Get("obj:plate"); e.SeenTurn != 2 || e.SeenTask != 0 || e.Source != "observe/head t2" {
		t.Errorf("plate entry %+v: seen at this task's turn 2", e)
	}
	rels, err := g.Relations("obj:mug", "on")
	if err != nil || len(rels) != 1 || rels[0].Source.Turn != 0 || rels[0].Source.Task != 1 {
		t.Errorf("mug relations %+v, %v: from task 1", rels, err)
	}
}
