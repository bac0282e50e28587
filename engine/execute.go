package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
)

// execute runs the turn's one tool call through the hook chains: one tool
// call per turn, the extra calls refused at decide in one line. Cancellation
// and a replan are checked before the tool runs; a call not run is answered
// too, so no tool call is ever left without a result.
func (tn *Turn) execute(ctx context.Context) {
	resp := tn.resp
	if resp == nil || len(resp.ToolCalls) == 0 || tn.end != nil {
		return
	}
	first := resp.ToolCalls[0]
	res := CallResult{ID: first.ID, Tool: first.Name}
	defer func() { tn.result = &res }()
	if tn.Cancelled(ctx, "tool execution") {
		res.Env = runlog.Failure("not executed: the task was cancelled")
		return
	}
	if tn.pollReplan() {
		res.Env = runlog.Failure("not executed: the instruction was revised before this call ran; decide again for the revised instruction")
		res.Revised = true
		return
	}
	if tn.args.err != nil {
		res.Env, res.Format = runlog.Failure(fmt.Sprintf("invalid arguments for %s: %v", first.Name, tn.args.err)+formatNote), true
		return
	}
	args := cloneValue(tn.args.value).(map[string]any)
	res.Args = args
	rt, ok := tn.h.tools.byName[first.Name]
	if !ok || rt.Contract.Hidden {
		res.Env, res.Format = runlog.Failure(fmt.Sprintf("unknown tool %q; available tools: %s", first.Name, tn.h.visibleNames())+formatNote), true
		return
	}
	call := &Call{ID: first.ID, Tool: first.Name, Args: args, Raw: first.Arguments, Turn: tn.Number}
	env, cc, post := tn.chain(ctx, call, rt)
	res.Env, res.Executed = env, post != nil
	if !env.Success && tn.malformed(rt, post == nil, env.Reason) {
		res.Format = true
		res.Env.Reason += formatNote
	}
	if post == nil {
		return
	}
	tn.applyEffects(cc, res, *post)
	for _, n := range post.Notes {
		tn.t.notes.add(tn.Number, n)
	}
}

// chain runs one call through pre-hooks → tool → post-hooks: the one path
// on which a call reaches a tool with its hooks. post is nil when the tool
// did not run (blocked, cancelled meanwhile, arguments the hooks left
// unencodable); the envelope then says why.
func (tn *Turn) chain(ctx context.Context, call *Call, rt *RegisteredTool) (runlog.Envelope, *CallContext, *PostResult) {
	h := tn.h
	cc := &CallContext{Call: call, Tool: rt, Observation: tn.t.observation, Emit: h.queue}
	// The policy emits its hook and evaluation events through cc.Emit as they
	// happen (a confirm hook may wait on a person); they are flushed in order.
	pre := h.runPre(ctx, cc)
	h.flush(tn.t)
	if !pre.Allowed {
		return runlog.Failure(fmt.Sprintf("blocked by hook %s: %s", pre.Hook, pre.Reason)), cc, nil
	}
	if pre.Args != nil {
		call.Args = pre.Args
	}
	// The chain may have waited on a person (confirm) or a clearance
	// reading: a cancellation that arrived meanwhile stops the motion.
	if tn.Cancelled(ctx, "tool execution") {
		return runlog.Failure("not executed: the task was cancelled"), cc, nil
	}
	raw, err := anyjson.Marshal(call.Args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("arguments for %s cannot be encoded after hooks: %v", call.Tool, err)), cc, nil
	}
	tn.Emit(runlog.Event{Kind: runlog.EventToolCall, Tool: call.Tool, CallID: call.ID, Args: call.Args})
	// The guard validates the value decide parsed instead of parsing the
	// same arguments again; arguments a hook rewrote or clamped are a new
	// value (of whatever Go types its rule gave), checked as the tool
	// receives them.
	var env runlog.Envelope
	if rewritten(pre.Decisions) {
		env = h.invoke(ctx, rt, raw)
	} else {
		env = h.invokeParsed(ctx, rt, raw, call.Args)
	}
	h.flush(tn.t)
	post := h.runPost(ctx, cc, &env)
	h.flush(tn.t)
	if post.Verdict != nil {
		env.Verdict = post.Verdict
	}
	return env, cc, &post
}

// rewritten reports whether a pre-hook changed the call's arguments.
func rewritten(vs []runlog.Decision) bool {
	for _, v := range vs {
		if v.Decision == runlog.DecisionRewrite || v.Decision == runlog.DecisionClamp {
			return true
		}
	}
	return false
}
