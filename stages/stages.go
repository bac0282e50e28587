package stages

import (
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Components are the seven stage names of loop.stages: the four context
// stages, each with the stages it must follow when both are listed (before
// every model call, in order: notes, observation, brief, compaction), and
// the fixed turn's positions (decide, execute, record), which are the
// engine's own (engine.TurnStages).
func Components() []engine.Component {
	stage := func(name, doc string, st engine.Stage, after ...string) engine.StageKind {
		return engine.StageKind{Name: name, Doc: doc, After: after,
			New: func(*schema.Spec) (engine.Stage, error) { return st, nil }}
	}
	return append([]engine.Component{
		stage("task_notes", "append a Task Notes snapshot when the notes changed", TaskNotes{}),
		stage("observe", "obtain a fresh Observation, replacing the previous one", Observe{}),
		stage("scene_brief", "refresh the Scene Graph and render its Brief", SceneBrief{}, "observe"),
		stage("compact", "compact Accumulated context when the budget is reached", Compact{}, "task_notes", "observe", "scene_brief"),
	}, engine.TurnStages()...)
}

var (
	_ engine.Stage = TaskNotes{}
	_ engine.Stage = Observe{}
	_ engine.Stage = SceneBrief{}
	_ engine.Stage = Compact{}
)
