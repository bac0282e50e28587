package stages

import (
	"context"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Register adds the seven standard stages to r under the names a spec's
// loop.stages uses.
func Register(r *engine.Registry[engine.StageFactory]) error {
	for name, f := range map[string]engine.StageFactory{
		"task_notes":  func(*schema.Spec) (engine.Stage, error) { return TaskNotes{}, nil },
		"observe":     func(*schema.Spec) (engine.Stage, error) { return Observe{}, nil },
		"scene_brief": func(*schema.Spec) (engine.Stage, error) { return SceneBrief{}, nil },
		"compact":     func(*schema.Spec) (engine.Stage, error) { return Compact{}, nil },
		"decide":      func(*schema.Spec) (engine.Stage, error) { return Decide{}, nil },
		"execute":     func(*schema.Spec) (engine.Stage, error) { return Execute{}, nil },
		"record":      func(*schema.Spec) (engine.Stage, error) { return Record{}, nil },
	} {
		if err := r.Register(name, f); err != nil {
			return err
		}
	}
	return nil
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
