package engine

import (
	"context"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Policy is the hook chains of a session: pre-execution hooks that may allow,
// block, rewrite, clamp or ask for confirmation, and post-execution hooks that
// evaluate or note. The engine cannot call a tool except through it.
type Policy interface {
	// Pre runs the pre-execution chain. A blocked call never runs; its reason
	// returns to the model through the ordinary result channel.
	Pre(ctx context.Context, cc *CallContext) PreResult
	// Post runs the post-execution chain on a call that ran; it may attach a
	// verdict to the envelope (never the post-condition).
	Post(ctx context.Context, cc *CallContext, res *runlog.Envelope) PostResult
}

// PolicyEnv is what a policy may use: reads of the session's tools that
// cannot move the robot (a fresh safety reading, post-execution evidence, a
// verifier), the evaluator model, the user (confirm hooks).
type PolicyEnv struct {
	Spec *schema.Spec
	// Components holds the hook actions the policy runs, by name.
	Components *Components
	Tools      ToolReader
	Evaluator  model.Model
	User       UserChannel
}

// PolicyFactory builds the session's policy from the spec.
type PolicyFactory func(env PolicyEnv) (Policy, error)

// CallContext is one call going through the chains. The policy emits one
// EventHook per hook decision and one EventEvaluation per verdict through Emit,
// as they happen; the engine does not emit them again.
type CallContext struct {
	Call *Call
	Tool *RegisteredTool
	// Observation is the latest Observation before the call (may be nil).
	Observation *world.Observation
	Emit        func(runlog.Event)
}

// PreResult is the outcome of the pre-execution chain.
type PreResult struct {
	Allowed bool
	// Args are the arguments to execute with (rewritten or clamped).
	Args   map[string]any
	Reason string
	Hook   string
	// Decisions are every hook's, in order (also emitted as events).
	Decisions []runlog.Decision
}

// PostResult is the outcome of the post-execution chain.
type PostResult struct {
	Verdict *world.Verdict
	// Evidence is the post-execution Observation the evaluator judged, when
	// it read one (the Scene Graph effects read it as after).
	Evidence *world.Observation
	// Notes are lines for the Task Notes timeline.
	Notes []string
}
