package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
)

// execute runs the turn's one tool call through the hook chains: one tool
// call per turn, the extra calls refused when the turn is recorded.
// Cancellation and a replan are checked before the tool runs; a call not
// run is answered too, so no tool call is ever left without a result.
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
	out := tn.chain(ctx, call, rt)
	res.Env, res.Executed, res.Format, res.Paused = out.env, out.post != nil, out.format, out.paused
	if out.format {
		res.Env.Reason += formatNote
	}
	if out.post == nil {
		return
	}
	res.changes = tn.h.argChanges(out.decisions)
	tn.applyEffects(out.cc, res, *out.post)
	for _, n := range out.post.Notes {
		tn.t.notes.add(tn.Number, n)
	}
}

// chained is what one call's way through the chain came to.
type chained struct {
	env runlog.Envelope
	cc  *CallContext
	// post is nil when the tool did not run (its arguments failed the
	// inputSchema, a hook blocked it, it was cancelled meanwhile); the
	// envelope then says why, and no post-hook judges it.
	post *PostResult
	// format: the arguments as sent failed the tool's inputSchema, before
	// any hook saw them.
	format bool
	// decisions are the pre-hooks' (nil when none ran).
	decisions []runlog.Decision
	// paused: an operator's pause stopped the call, or came before it.
	paused bool
}

// chain runs one call through schema check → pre-hooks → tool → post-hooks:
// the one path on which a call reaches a tool with its hooks. The
// arguments are checked against the tool's inputSchema before any hook, so
// a wrong type is a malformed call, never a hook's block; arguments a hook
// rewrote or clamped are checked again as the tool receives them.
func (tn *Turn) chain(ctx context.Context, call *Call, rt *RegisteredTool) chained {
	h := tn.h
	cc := &CallContext{Call: call, Tool: rt, Observation: tn.t.observation, Emit: h.queue}
	g, _ := rt.tool.(*guarded)
	if g != nil {
		if why := g.validate(call.Args); why != "" {
			return chained{env: runlog.Failure(why), cc: cc, format: true}
		}
	}
	// The policy emits its hook and evaluation events through cc.Emit as they
	// happen (a confirm hook may wait on a person); they are flushed in order.
	pre := h.runPre(ctx, cc)
	h.flush(tn.t)
	out := chained{cc: cc, decisions: pre.Decisions}
	if !pre.Allowed {
		out.env = runlog.Failure(fmt.Sprintf("blocked by hook %s: %s", pre.Hook, pre.Reason))
		return out
	}
	if pre.Args != nil {
		call.Args = pre.Args
	}
	// The chain may have waited on a person (confirm) or a clearance
	// reading: a cancellation that arrived meanwhile stops the motion.
	if tn.Cancelled(ctx, "tool execution") {
		out.env = runlog.Failure("not executed: the task was cancelled")
		return out
	}
	raw, err := anyjson.Marshal(call.Args)
	if err != nil {
		out.env = runlog.Failure(fmt.Sprintf("not executed: the arguments of %s cannot be encoded after hooks: %v", call.Tool, err))
		return out
	}
	// Arguments a hook rewrote or clamped are a new value (of whatever Go
	// types its rule gave), checked as the tool receives them: as JSON.
	if g != nil && rewritten(pre.Decisions) {
		var why string
		if raw, why = g.check(raw); why != "" {
			out.env = runlog.Failure(fmt.Sprintf("not executed: the arguments the hooks (%s) gave %s fail its inputSchema: %s", hooksChanging(pre.Decisions), call.Tool, why))
			return out
		}
	}
	// A pause ends the call through the stop path (its context); a call
	// the pause came before never runs.
	cctx, left, why := h.pause.enterCall(ctx, call.Tool)
	if why != "" {
		out.env, out.paused = runlog.Failure(why), true
		return out
	}
	tn.Emit(runlog.Event{Kind: runlog.EventToolCall, Tool: call.Tool, CallID: call.ID, Args: call.Args})
	out.env = h.invokeChecked(cctx, rt, raw)
	left()
	if errors.Is(context.Cause(cctx), errPausedCall) {
		out.paused = true
		out.env.Reason += " (an operator paused the agent during this call and has the robot until they hand back)"
	}
	h.flush(tn.t)
	post := h.runPost(ctx, cc, &out.env)
	h.flush(tn.t)
	if post.Verdict != nil {
		out.env.Verdict = post.Verdict
	}
	out.post = &post
	return out
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
