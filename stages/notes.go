package stages

import (
	"context"

	"github.com/thea-harness/thea/engine"
)

// TaskNotes appends a Task Notes snapshot to Accumulated context when the
// notes changed since the last one, so the model reads the goal,
// phase and timeline without the notes growing the context every turn.
type TaskNotes struct{}

// Name implements engine.Stage.
func (TaskNotes) Name() string { return "task_notes" }

// Run implements engine.Stage.
func (TaskNotes) Run(_ context.Context, t *engine.Turn) error {
	t.AppendNotesSnapshot()
	return nil
}

// Compact applies Accumulated-context compaction when the estimated request
// reaches context_window - reserve_tokens; it touches only Accumulated
// context (see engine.Turn.Compact).
type Compact struct{}

// Name implements engine.Stage.
func (Compact) Name() string { return "compact" }

// Run implements engine.Stage.
func (Compact) Run(ctx context.Context, t *engine.Turn) error { t.Compact(ctx); return nil }
