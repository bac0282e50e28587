package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// record appends the compact result of this turn's call to Accumulated
// context (the envelope JSON bounded by tool_result_max_chars keeping start
// and end, its payloads replaced by placeholders before any cut; transient
// images kept for the next request only), with the one
// refusal of the response's extra calls beside it, emits it and adds a Task
// Notes event. It records once per turn; the engine calls it too when a
// task ends mid-turn, so no tool call is ever left without its result.
func (tn *Turn) record() {
	if tn.recorded || tn.result == nil {
		return
	}
	tn.recorded = true
	h, t := tn.h, tn.t
	limit := h.spec.Context.Compaction.ToolResultMaxChars
	r := tn.result
	b, err := r.Env.MarshalJSON() // compact and escaped as json.Marshal would leave it
	if err != nil {
		b = []byte(fmt.Sprintf(`{"success":false,"reason":"result could not be encoded: %v"}`, err))
	}
	// Redacted before the cut too: a secret the cut splits would leave its
	// pieces, which no later redaction recognises, in every request.
	parts := []model.Part{{Text: lifetimes.BoundResult(string(h.redactor.JSON(b)), limit)}}
	if tn.refused != "" {
		// Beside the result of the call that the response's other calls
		// were refused for: the transcript holds only that call, and a
		// message after a tool result is valid on every wire.
		parts = append(parts, model.Part{Text: tn.refused})
	}
	for j := range r.Env.Images {
		parts = append(parts, model.Part{Image: &r.Env.Images[j]})
	}
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindToolResult, Group: tn.group, Pending: len(r.Env.Images) > 0,
		Msg: model.Message{Role: model.RoleTool, ToolCallID: r.ID, Name: r.Tool, Parts: parts, IsError: !r.Env.Success}})
	h.emit(t, runlog.Event{Kind: runlog.EventToolResult, Tool: r.Tool, CallID: r.ID, Args: r.Args, Result: &r.Env, Images: r.Env.Images, Text: tn.refused})
	t.notes.addResult(tn.Number, r.Tool, !r.Env.Success, noteLine(r, h.redactor))
	if tn.refused != "" {
		t.notes.add(tn.Number, oneLine(tn.refused, 160))
	}
}

// noteLine is the Task Notes line of a result, its reasons redacted before
// they are bounded (a secret cut in two is no longer found).
func noteLine(r *CallResult, red *redact.Redactor) string {
	var b strings.Builder
	b.WriteString(r.Tool)
	if r.Env.Success {
		b.WriteString(": ok")
	} else {
		b.WriteString(": failed: " + oneLine(red.String(r.Env.Reason), 120))
	}
	if v := r.Env.Verdict; v != nil {
		b.WriteString("; verdict " + string(v.Status))
		// A failed call's verdict usually repeats the call's own reason.
		if v.Reason != "" && (r.Env.Success || v.Reason != r.Env.Reason) {
			b.WriteString(": " + oneLine(red.String(v.Reason), 120))
		}
	}
	return b.String()
}

// settle answers the turn's call when it has no result yet (the task ended
// between the decision and its execution) and records it.
func (tn *Turn) settle() {
	if tn.resp == nil || tn.recorded || len(tn.resp.ToolCalls) == 0 {
		return
	}
	if tn.result == nil {
		c := tn.resp.ToolCalls[0]
		tn.result = &CallResult{ID: c.ID, Tool: c.Name, Args: tn.args.value,
			Env: runlog.Failure("not executed: the task ended before this call ran")}
	}
	tn.record()
}

// runPre runs the pre chain; a policy that panics fails closed: the call is
// blocked and the session goes on.
func (h *Harness) runPre(ctx context.Context, cc *CallContext) (res PreResult) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("pre-execution policy panicked", "tool", cc.Call.Tool, "panic", r)
			res = PreResult{Hook: "policy", Reason: fmt.Sprintf("the pre-execution hooks failed (%v); blocked to stay safe", r)}
		}
	}()
	return h.policy.Pre(ctx, cc)
}

// runPost runs the post chain; a policy that panics gives a failure verdict
// (the call ran, but nothing confirmed its outcome).
func (h *Harness) runPost(ctx context.Context, cc *CallContext, env *runlog.Envelope) (res PostResult) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("post-execution policy panicked", "tool", cc.Call.Tool, "panic", r)
			res = PostResult{Verdict: &world.Verdict{Status: world.VerdictFailure, Source: "harness",
				Reason: fmt.Sprintf("the post-execution hooks failed (%v); the outcome is unconfirmed", r)}}
		}
	}()
	return h.policy.Post(ctx, cc, env)
}
