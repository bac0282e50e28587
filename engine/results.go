package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// RecordResults appends the compact results of this turn's calls to
// Accumulated context (the envelope JSON bounded by tool_result_max_chars
// keeping start and end; transient images kept for the next request only),
// emits each and adds a Task Notes event. It records once per turn; the
// engine calls it too when a task ends mid-turn, so no tool call is ever
// left without its result.
func (tn *Turn) RecordResults() {
	if tn.recorded || len(tn.results) == 0 {
		return
	}
	tn.recorded = true
	h, t := tn.h, tn.t
	limit := h.spec.Context.Compaction.ToolResultMaxChars
	for i := range tn.results {
		r := &tn.results[i]
		b, err := r.Env.MarshalJSON() // compact and escaped as json.Marshal would leave it
		if err != nil {
			b = []byte(fmt.Sprintf(`{"success":false,"reason":"result could not be encoded: %v"}`, err))
		}
		parts := []model.Part{{Text: boundMiddle(string(b), limit)}}
		for j := range r.Env.Images {
			parts = append(parts, model.Part{Image: &r.Env.Images[j]})
		}
		h.store.append(entry{kind: kindToolResult, group: tn.group, pending: len(r.Env.Images) > 0,
			msg: model.Message{Role: model.RoleTool, ToolCallID: r.ID, Name: r.Tool, Parts: parts, IsError: !r.Env.Success}})
		h.emit(t, Event{Kind: EventToolResult, Tool: r.Tool, CallID: r.ID, Args: r.Args, Result: &r.Env, Images: r.Env.Images})
		t.notes.addResult(tn.Number, r.Tool, !r.Env.Success, noteLine(r))
	}
}

func noteLine(r *CallResult) string {
	var b strings.Builder
	b.WriteString(r.Tool)
	if r.Env.Success {
		b.WriteString(": ok")
	} else {
		b.WriteString(": failed: " + oneLine(r.Env.Reason, 120))
	}
	if v := r.Env.Verdict; v != nil {
		b.WriteString("; verdict " + string(v.Status))
		// A failed call's verdict usually repeats the call's own reason.
		if v.Reason != "" && (r.Env.Success || v.Reason != r.Env.Reason) {
			b.WriteString(": " + oneLine(v.Reason, 120))
		}
	}
	return b.String()
}

// settle answers every call of the turn that has no result yet (the task
// ended between the decision and its execution) and records them.
func (tn *Turn) settle() {
	if tn.resp == nil || tn.recorded {
		return
	}
	answered := map[string]bool{}
	for _, r := range tn.results {
		answered[r.ID] = true
	}
	for _, c := range tn.resp.ToolCalls {
		if !answered[c.ID] {
			tn.results = append(tn.results, CallResult{ID: c.ID, Tool: c.Name, Args: DecodeArgs(c.Arguments),
				Env: Failure("not executed: the task ended before this call ran")})
		}
	}
	tn.RecordResults()
}

// DecodeArgs decodes a call's arguments leniently (nil when they are not a
// JSON object), for recording calls that never ran.
func DecodeArgs(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
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
func (h *Harness) runPost(ctx context.Context, cc *CallContext, env *Envelope) (res PostResult) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("post-execution policy panicked", "tool", cc.Call.Tool, "panic", r)
			res = PostResult{Verdict: &schema.Verdict{Status: schema.VerdictFailure, Source: "harness",
				Reason: fmt.Sprintf("the post-execution hooks failed (%v); the outcome is unconfirmed", r)}}
		}
	}()
	return h.policy.Post(ctx, cc, env)
}
