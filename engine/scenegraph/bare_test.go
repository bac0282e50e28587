package scenegraph

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// A ref known only as a relation's target (the table the robot drove to,
// the place a mug is on, with no room) has no line of its own that would
// say nothing: the lines that relate to it name it, and every listed line
// carries at least one fact or a source.
func TestBriefHasNoBareLines(t *testing.T) {
	g := New(10)
	g.Update(&world.Observation{Pose: &world.Pose{X: 1, Y: 1, Room: "kitchen"},
		Detections: []world.Detection{{Name: "mug", Camera: "head", Relation: "on", Target: "counter"}}}, 1, "observe")
	near := compile(t, "navigate_to", schema.Effect{Set: "robot.near", To: "args.target"})
	ops, err := Evaluate(near, &schema.CheckEnv{Args: map[string]any{"target": "table"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply("2/c1", Source{Kind: "call", Tool: "navigate_to", CallID: "c1", Turn: 2}, ops); err != nil {
		t.Fatal(err)
	}
	b := g.Brief(BriefLimits{})
	if !strings.Contains(b, "near place:table [navigate_to ✓ t2]") || !strings.Contains(b, "- obj:mug: on place:counter") {
		t.Fatalf("the relations must name their targets:\n%s", b)
	}
	for l := range strings.SplitSeq(b, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.ContainsAny(l, ":[") || l == "- place:table" || l == "- place:counter" {
			t.Errorf("bare line %q carries nothing:\n%s", l, b)
		}
	}
	if strings.Contains(b, "more refs, not listed") {
		t.Errorf("a ref left out for carrying nothing is not one to look up:\n%s", b)
	}
}
