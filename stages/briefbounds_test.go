package stages_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/stages"
)

// The Brief's bounds have one default, the schema's: the scene_brief stage
// starts with what the loaded plan holds, and refuses a spec built in Go
// that leaves a bound 0 (the scene graph would fall back to its own).
func TestSceneBriefBoundsAreThePlans(t *testing.T) {
	var kind engine.StageKind
	for _, c := range stages.Components() {
		if k := c.(engine.StageKind); k.Name == "scene_brief" {
			kind = k
		}
	}
	s := withStages(t, "task_notes observe scene_brief compact", nil)
	if !s.SceneGraph.Enabled || s.SceneGraph.MaxBriefRefs <= 0 || s.SceneGraph.MaxBriefObjects <= 0 {
		t.Fatalf("the loaded plan's scene graph %+v: the schema's defaults are missing", s.SceneGraph)
	}
	if _, err := kind.New(s); err != nil {
		t.Fatalf("scene_brief with the plan's bounds: %v", err)
	}
	for field, edit := range map[string]func(*schema.SceneGraph){
		"scene_graph.max_brief_refs is 0: it must be positive":    func(g *schema.SceneGraph) { g.MaxBriefRefs = 0 },
		"scene_graph.max_brief_objects is 0: it must be positive": func(g *schema.SceneGraph) { g.MaxBriefObjects = 0 },
	} {
		built := *s
		edit(&built.SceneGraph)
		if _, err := kind.New(&built); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("scene_brief with a bound left 0: err %v, want %q", err, field)
		}
		built.SceneGraph.Enabled = false
		if _, err := kind.New(&built); err != nil {
			t.Errorf("scene_brief with the scene graph off: %v", err)
		}
	}
}
