package stages

import (
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Components are the four context stages loop.stages orders and switches,
// each with the stages it must follow when both are listed (before every
// model call, in order: notes, observation, brief, compaction) and, where
// a section of the spec needs it, why (validate warns when it is missing).
// The rest of the turn (decide, execute, record) is the engine's own.
func Components() []engine.Component {
	stage := func(name, doc string, st engine.Stage, after ...string) engine.StageKind {
		return engine.StageKind{Name: name, Doc: doc, After: after,
			New: func(*schema.Spec) (engine.Stage, error) { return st, nil }}
	}
	notes := stage("task_notes", "append a Task Notes snapshot when the notes changed", TaskNotes{})
	notes.Needed, notes.NeededDoc = notesNeeded, "a post hook writes a note"
	// The snapshot of what the notes say is settled before the present is
	// read, so a note hook's line is in the history the observation follows.
	notes.Before = []string{Observe{}.Name()}
	observe := stage("observe", "obtain a fresh Observation, replacing the previous one", Observe{})
	observe.Needed, observe.NeededDoc = observeNeeded, "observation.tool is set"
	brief := stage("scene_brief", "refresh the Scene Graph and render its Brief", SceneBrief{}, "observe")
	brief.New = newSceneBrief
	compact := stage("compact", "compact Accumulated context when the budget is reached", Compact{}, "task_notes", "observe", "scene_brief")
	compact.Needed, compact.NeededDoc = compactNeeded, "context.compaction.enabled is true"
	return []engine.Component{
		notes,
		observe,
		brief,
		compact,
	}
}

// newSceneBrief refuses a spec whose Brief bounds are not the schema's
// (a spec built in Go that leaves them 0): the scene graph would fall
// back to bounds of its own, a second default.
func newSceneBrief(s *schema.Spec) (engine.Stage, error) {
	if s == nil || !s.SceneGraph.Enabled {
		return SceneBrief{}, nil
	}
	for _, f := range []struct {
		path string
		n    int
	}{{"scene_graph.max_brief_objects", s.SceneGraph.MaxBriefObjects}, {"scene_graph.max_brief_refs", s.SceneGraph.MaxBriefRefs}} {
		if f.n <= 0 {
			return nil, fmt.Errorf("%s is %d: it must be positive (schema.Load fills the schema's default)", f.path, f.n)
		}
	}
	return SceneBrief{}, nil
}

// notesNeeded: a post hook with action note writes to the Task Notes,
// which only the task_notes stage shows the model.
func notesNeeded(s *schema.Spec) (string, string) {
	for i, h := range s.Hooks.Post {
		if h.Action == "note" {
			return fmt.Sprintf("hooks.post[%d]", i), fmt.Sprintf("the post hook %q writes a note to the Task Notes", h.Name)
		}
	}
	return "", ""
}

// observeNeeded: the observation tool is called only by the observe stage.
func observeNeeded(s *schema.Spec) (string, string) {
	if s.Observation.Tool == "" {
		return "", ""
	}
	return "observation.tool", fmt.Sprintf("the observation section names the tool %q", s.Observation.Tool)
}

// compactNeeded: compaction runs only in the compact stage.
func compactNeeded(s *schema.Spec) (string, string) {
	if !s.Context.Compaction.Enabled {
		return "", ""
	}
	return "context.compaction.enabled", "compaction is enabled"
}

var (
	_ engine.Stage = TaskNotes{}
	_ engine.Stage = Observe{}
	_ engine.Stage = SceneBrief{}
	_ engine.Stage = Compact{}
)
