package stages

import (
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Components are the seven standard stages, each with the stages it must
// follow when both are listed in loop.stages (before every model call, in
// order: notes, observation, brief, compaction).
func Components() []engine.Component {
	stage := func(name, doc string, st engine.Stage, required bool, after ...string) engine.StageKind {
		return engine.StageKind{Name: name, Doc: doc, After: after, Required: required,
			New: func(*schema.Spec) (engine.Stage, error) { return st, nil }}
	}
	return []engine.Component{
		stage("task_notes", "append a Task Notes snapshot when the notes changed", TaskNotes{}, false),
		stage("observe", "obtain a fresh Observation, replacing the previous one", Observe{}, false),
		stage("scene_brief", "refresh the Scene Graph and render its Brief", SceneBrief{}, false, "observe"),
		stage("compact", "compact Accumulated context when the budget is reached", Compact{}, false, "task_notes", "observe", "scene_brief"),
		stage("decide", "make the turn's one model call", Decide{}, true, "task_notes", "observe", "scene_brief", "compact"),
		stage("execute", "run the chosen call through the hooks and the tool", Execute{}, true, "decide"),
		stage("record", "record the compact result and a Task Notes event", Record{}, true, "execute"),
	}
}

var (
	_ engine.Stage = TaskNotes{}
	_ engine.Stage = Observe{}
	_ engine.Stage = SceneBrief{}
	_ engine.Stage = Compact{}
	_ engine.Stage = Decide{}
	_ engine.Stage = Execute{}
	_ engine.Stage = Record{}
)
