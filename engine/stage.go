package engine

import (
	"context"
)

// Stage is one step of the turn pipeline. The context stages run in the
// order the spec's loop.stages gives, then the engine's fixed turn; a
// context stage acts on the turn only through *Turn's methods.
type Stage interface {
	Name() string
	Run(ctx context.Context, t *Turn) error
}

// fixedTurn is the engine's part of every turn, after the context stages:
// decide (the model call), execute (pre-hooks → tool → post-hooks →
// effects) and record (the result, the Task Notes event, the failure
// budget). Its work is unexported, so no stage can skip a hook, and it is
// no spec setting (schema.FixedTurn names it).
func fixedTurn() []Stage {
	return []Stage{
		turnStage{"decide", (*Turn).decide},
		turnStage{"execute", func(tn *Turn, ctx context.Context) error {
			tn.execute(ctx)
			return nil
		}},
		turnStage{"record", func(tn *Turn, _ context.Context) error {
			tn.record()
			tn.countFailure()
			return nil
		}},
	}
}

// turnStage is one position of the fixed turn.
type turnStage struct {
	name string
	run  func(*Turn, context.Context) error
}

func (s turnStage) Name() string                            { return s.name }
func (s turnStage) Run(ctx context.Context, tn *Turn) error { return s.run(tn, ctx) }
