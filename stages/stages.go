package stages

import (
	"context"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Components are the seven standard stages, each with the stages it must
// follow when both are listed in loop.stages (R3's order before every model
// call: notes, observation, brief, compaction).
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

// TaskNotes appends a Task Notes snapshot when the notes changed (R3.1).
type TaskNotes struct{}

// Name implements engine.Stage.
func (TaskNotes) Name() string { return "task_notes" }

// Run implements engine.Stage.
func (TaskNotes) Run(_ context.Context, t *engine.Turn) error { t.SnapshotNotes(); return nil }

// Observe obtains a fresh Observation, replacing the previous one (R3.2).
type Observe struct{}

// Name implements engine.Stage.
func (Observe) Name() string { return "observe" }

// Run implements engine.Stage.
func (Observe) Run(ctx context.Context, t *engine.Turn) error { t.Observe(ctx); return nil }

// SceneBrief refreshes the working Scene Graph and renders its Brief (R3.3).
type SceneBrief struct{}

// Name implements engine.Stage.
func (SceneBrief) Name() string { return "scene_brief" }

// Run implements engine.Stage.
func (SceneBrief) Run(_ context.Context, t *engine.Turn) error { t.RefreshBrief(); return nil }

// Compact applies Accumulated-context compaction when due (R3.4).
type Compact struct{}

// Name implements engine.Stage.
func (Compact) Name() string { return "compact" }

// Run implements engine.Stage.
func (Compact) Run(ctx context.Context, t *engine.Turn) error { t.Compact(ctx); return nil }

// Decide makes the turn's one model call.
type Decide struct{}

// Name implements engine.Stage.
func (Decide) Name() string { return "decide" }

// Run implements engine.Stage.
func (Decide) Run(ctx context.Context, t *engine.Turn) error { return t.Decide(ctx) }

// Execute runs the selected tool call through pre-hooks, the tool and
// post-hooks.
type Execute struct{}

// Name implements engine.Stage.
func (Execute) Name() string { return "execute" }

// Run implements engine.Stage.
func (Execute) Run(ctx context.Context, t *engine.Turn) error { return t.Execute(ctx) }

// Record records the compact result and a Task Notes event.
type Record struct{}

// Name implements engine.Stage.
func (Record) Name() string { return "record" }

// Run implements engine.Stage.
func (Record) Run(_ context.Context, t *engine.Turn) error { t.Record(); return nil }
