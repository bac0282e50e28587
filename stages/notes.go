package stages

import (
	"context"

	"github.com/thea-harness/thea/engine"
)

// TaskNotes appends a whole Task Notes snapshot (goal, phase, bounded
// timeline) to Accumulated context when the notes changed since the last
// one: the latest snapshot alone says what the notes hold.
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
