package stages_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

// householdStages is the household example's loop.stages block.
const householdStages = "  stages:\n    - task_notes\n    - observe\n    - scene_brief\n    - compact\n"

// withStages is the household example with loop.stages set to stages and
// then the fixed turn's names (so the spec loads whether or not they are
// still required), and edit applied.
func withStages(t *testing.T, stages string, edit func(path string)) *schema.Spec {
	t.Helper()
	path := householdCopy(t)
	replaceIn(t, path, householdStages, fmt.Sprintf("  stages: [%s]\n", strings.Join(append(strings.Fields(stages), "decide", "execute", "record"), ", ")))
	if edit != nil {
		edit(path)
	}
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if s == nil {
		t.Fatalf("the spec does not load: %v", diags)
	}
	return s
}

// warning finds the warning at path whose message has every part.
func warning(s *schema.Spec, path string, parts ...string) (schema.Diagnostic, bool) {
	for _, d := range s.Warnings {
		if d.Path == path && d.Warning && d.Pos.Line > 0 && !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(d.Message, p) }) {
			return d, true
		}
	}
	return schema.Diagnostic{}, false
}

// A context stage the spec's own sections need, left out of loop.stages or
// listed after a stage it should precede, is a positioned warning naming
// the section that needs it.
func TestNeededStageWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, stages string
		edit         func(string)
		path         string
		want         []string
	}{
		{"observe missing with an observation section", "task_notes scene_brief compact", nil,
			"loop.stages", []string{`leaves out "observe"`, "observation.tool"}},
		{"compact missing with compaction enabled", "task_notes observe scene_brief", nil,
			"loop.stages", []string{`leaves out "compact"`, "context.compaction.enabled"}},
		{"task_notes missing with a note hook", "observe scene_brief compact", nil,
			"loop.stages", []string{`leaves out "task_notes"`, `"note_navigation"`, "hooks.post[2]"}},
		{"task_notes after observe with a note hook", "observe task_notes scene_brief compact", nil,
			"loop.stages[1]", []string{`"task_notes" runs after "observe"`, `list "task_notes" before "observe"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := withStages(t, tc.stages, tc.edit)
			if _, ok := warning(s, tc.path, tc.want...); !ok {
				t.Fatalf("no warning at %s with %q: %v", tc.path, tc.want, s.Warnings)
			}
		})
	}
	// Without the sections that need them, leaving the stages out is the
	// spec's choice: no warning.
	s := withStages(t, "scene_brief", func(path string) {
		replaceIn(t, path, "      action: note\n      note: Arrived; the scene brief now reflects the new room.\n", "      action: evaluate\n")
		replaceIn(t, path, "context:\n  compaction:\n    enabled: true\n", "context:\n  compaction:\n    enabled: false\n")
		replaceIn(t, path, "observation:\n  tool: observe\n", "")
	})
	for _, d := range s.Warnings {
		if d.Path == "loop.stages" {
			t.Errorf("warning for a stage nothing needs: %v", d)
		}
	}
}

// A spec that still lists the fixed turn's names loads, with one warning
// at the first of them, and the plan's loop holds the context stages only.
func TestOldStageNamesWarn(t *testing.T) {
	s, diags := schema.Load([]string{"testdata/old_stage_names.yaml"}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
	if s == nil {
		t.Fatalf("a spec with the old stage names does not load: %v", diags)
	}
	d, ok := warning(s, "loop.stages[4]", `"decide", "execute" and "record"`, "ignored", "can be removed")
	if !ok {
		t.Fatalf("no warning about the old stage names: %v", s.Warnings)
	}
	if d.Pos.Line != 12 {
		t.Errorf("warning at %v, want line 12 (loop.stages)", d.Pos)
	}
	if got := strings.Join(s.Loop.Stages, ","); got != "task_notes,observe,scene_brief,compact" {
		t.Errorf("the plan's stages are %s, want the context stages only", got)
	}
}
