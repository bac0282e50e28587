package stages

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/anyjson"
)

// Execute runs the turn's one tool call through the hook chains: one tool
// call per turn, extra calls answered with a failure envelope stating the
// rule. Cancellation and a replan are checked before the tool runs; a call
// not run is answered too, so no tool call is ever left without a result.
type Execute struct{}

// Name implements engine.Stage.
func (Execute) Name() string { return "execute" }

// Run implements engine.Stage.
func (Execute) Run(ctx context.Context, t *engine.Turn) error {
	resp := t.Decision()
	if resp == nil || len(resp.ToolCalls) == 0 || t.Ended() {
		return nil
	}
	calls := resp.ToolCalls
	first := calls[0]
	for _, c := range calls[1:] {
		t.AddResult(engine.CallResult{ID: c.ID, Tool: c.Name, Args: engine.DecodeArgs(c.Arguments), Env: engine.Failure(fmt.Sprintf(
			"not executed: one tool call per turn. Only the first call (%s) ran; call %s again in a later turn if it is still needed.", first.Name, c.Name))})
	}
	res := engine.CallResult{ID: first.ID, Tool: first.Name}
	defer func() { t.PutFirst(res) }()
	if t.Cancelled(ctx, "tool execution") {
		res.Env = engine.Failure("not executed: the task was cancelled")
		return nil
	}
	if t.PollReplan() {
		res.Env = engine.Failure("not executed: the instruction was revised before this call ran; decide again for the revised instruction")
		res.Revised = true
		return nil
	}
	args, err := firstArgs(t, first.Arguments)
	if err != nil {
		res.Env = engine.Failure(fmt.Sprintf("invalid arguments for %s: %v", first.Name, err))
		return nil
	}
	res.Args = args
	rt, ok := t.Tool(first.Name)
	if !ok {
		res.Env = engine.Failure(fmt.Sprintf("unknown tool %q; available tools: %s", first.Name, t.VisibleTools()))
		return nil
	}
	call := &engine.Call{ID: first.ID, Tool: first.Name, Args: args, Raw: first.Arguments, Turn: t.Number}
	cc := t.NewCallContext(call, rt)
	// The policy emits its hook and evaluation events through cc.Emit as they
	// happen (a confirm hook may wait on a person); they are flushed in order.
	pre := t.Pre(ctx, cc)
	t.Flush()
	if !pre.Allowed {
		res.Env = engine.Failure(fmt.Sprintf("blocked by hook %s: %s", pre.Hook, pre.Reason))
		return nil
	}
	if pre.Args != nil {
		call.Args = pre.Args
	}
	// The chain may have waited on a person (confirm) or a clearance
	// reading: a cancellation that arrived meanwhile stops the motion.
	if t.Cancelled(ctx, "tool execution") {
		res.Env = engine.Failure("not executed: the task was cancelled")
		return nil
	}
	raw, err := anyjson.Marshal(call.Args)
	if err != nil {
		res.Env = engine.Failure(fmt.Sprintf("arguments for %s cannot be encoded after hooks: %v", first.Name, err))
		return nil
	}
	t.Emit(engine.Event{Kind: engine.EventToolCall, Tool: first.Name, CallID: first.ID, Args: call.Args})
	res.Env = t.Invoke(ctx, rt, raw)
	res.Executed = true
	t.Flush()
	post := t.Post(ctx, cc, &res.Env)
	t.Flush()
	if post.Verdict != nil {
		res.Env.Verdict = post.Verdict
	}
	applyEffects(t, cc, res, post)
	for _, n := range post.Notes {
		t.Note(n)
	}
	return nil
}
