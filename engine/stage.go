package engine

import (
	"context"

	"github.com/thea-harness/thea/schema"
)

// Stage is one step of the turn pipeline. Stages run in the order the spec's
// loop.stages gives; a context stage acts on the turn only through *Turn's
// methods.
type Stage interface {
	Name() string
	Run(ctx context.Context, t *Turn) error
}

// TurnStages are the positions of the fixed turn in loop.stages: decide
// (the model call), execute (pre-hooks → tool → post-hooks → effects) and
// record (the result, the Task Notes event, the failure budget). Their
// work is the engine's own and unexported, so no stage can skip a hook;
// each must be listed, after the context stages it needs.
func TurnStages() []Component {
	stage := func(name, doc string, st Stage, after ...string) StageKind {
		return StageKind{Name: name, Doc: doc, After: after, Required: true,
			New: func(*schema.Spec) (Stage, error) { return st, nil }}
	}
	return []Component{
		stage("decide", "make the turn's one model call", turnStage{"decide", (*Turn).decide},
			"task_notes", "observe", "scene_brief", "compact"),
		stage("execute", "run the chosen call through the hooks and the tool", turnStage{"execute", func(tn *Turn, ctx context.Context) error {
			tn.execute(ctx)
			return nil
		}}, "decide"),
		stage("record", "record the compact result and a Task Notes event", turnStage{"record", func(tn *Turn, _ context.Context) error {
			tn.record()
			tn.countFailure()
			return nil
		}}, "execute"),
	}
}

// turnStage is one position of the fixed turn.
type turnStage struct {
	name string
	run  func(*Turn, context.Context) error
}

func (s turnStage) Name() string                            { return s.name }
func (s turnStage) Run(ctx context.Context, tn *Turn) error { return s.run(tn, ctx) }
