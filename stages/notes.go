package stages

import (
	"context"

	"github.com/thea-harness/thea/engine"
)

// TaskNotes states the Task Notes when they changed since the last time:
// what changed is appended to Accumulated context, and the whole notes
// (goal, phase, bounded timeline) open the Refreshed tail.
type TaskNotes struct{}

// Name implements engine.Stage.
func (TaskNotes) Name() string { return "task_notes" }

// Run implements engine.Stage.
func (TaskNotes) Run(_ context.Context, t *engine.Turn) error {
	t.AppendNotesSnapshot()
	return nil
}

// Compact applies Accumulated-context compaction when the estimated request
// reaches context_window - reserve_tokens, down to the low-water mark
// (context.compaction.target); it touches only Accumulated context (see
// engine.Turn.Compact).
type Compact struct{}

// Name implements engine.Stage.
func (Compact) Name() string { return "compact" }

// Run implements engine.Stage.
func (Compact) Run(ctx context.Context, t *engine.Turn) error { t.Compact(ctx); return nil }
