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
// images kept for the next request only), preceded by a harness line when
// the hooks changed its arguments, then one refusal for each extra call of
// the response; it emits the result and adds Task Notes events. It records
// once per turn; the engine calls it too when a task ends mid-turn, so no
// tool call is ever left without its result.
func (tn *Turn) record() {
	if tn.recorded || tn.result == nil {
		return
	}
	tn.recorded = true
	h, t := tn.h, tn.t
	limit := h.spec.Context.Compaction.ToolResultMaxChars
	r := tn.result
	b, err := modelEnvelope(r.Env).MarshalJSON() // compact and escaped as json.Marshal would leave it
	if err != nil {
		b = []byte(fmt.Sprintf(`{"success":false,"reason":"result could not be encoded: %v"}`, err))
	}
	// The harness line is its own line before the result, so the result
	// stays one JSON object on every wire (a wire joins a message's text).
	line := h.redactor.String(harnessLine(r.Tool, r.changes))
	parts := make([]model.Part, 0, 1+len(r.Env.Images)+min(len(line), 1))
	if line != "" {
		parts = append(parts, model.Part{Text: line + "\n"})
	}
	// Redacted before the cut too: a secret the cut splits would leave its
	// pieces, which no later redaction recognises, in every request.
	parts = append(parts, model.Part{Text: lifetimes.BoundResult(string(h.redactor.JSON(b)), limit)})
	images := modelImages(r.Env.Images, h.opts.Blind)
	for j := range images {
		parts = append(parts, model.Part{Image: &images[j]})
	}
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindToolResult, Group: tn.group, Pending: len(images) > 0,
		Msg: model.Message{Role: model.RoleTool, ToolCallID: r.ID, Name: r.Tool, Parts: parts, IsError: !r.Env.Success}})
	// Each extra call has its own failure envelope, after the first call's
	// result (the order of the calls, as every wire wants them answered).
	for i, c := range tn.extra {
		dropped := 0
		if i == len(tn.extra)-1 {
			dropped = tn.dropped
		}
		rb, err := runlog.Failure(refusal(r.Tool, c.Name, r.Executed, dropped)).MarshalJSON()
		if err != nil {
			rb = []byte(`{"success":false,"reason":"not executed: one tool call per turn"}`)
		}
		h.store.Append(lifetimes.Entry{Kind: lifetimes.KindToolResult, Group: tn.group,
			Msg: model.Message{Role: model.RoleTool, ToolCallID: c.ID, Name: c.Name, Parts: []model.Part{{Text: string(h.redactor.JSON(rb))}}, IsError: true}})
	}
	var refused string
	if len(tn.extra) > 0 {
		refused = h.redactor.String(refusedNote(tn.extra, tn.dropped))
	}
	text := line
	if refused != "" {
		text = strings.TrimPrefix(text+"\n"+refused, "\n")
	}
	h.emit(t, runlog.Event{Kind: runlog.EventToolResult, Tool: r.Tool, CallID: r.ID, Args: r.Args, Result: &r.Env, Images: r.Env.Images, Text: text})
	t.notes.addResult(tn.Number, r.Tool, !r.Env.Success, noteLine(r, h.redactor))
	if refused != "" {
		t.notes.add(tn.Number, oneLine(refused, 160))
	}
}

// modelEnvelope is the envelope as the acting model reads it: a verdict
// keeps only its status and reason. Its evidence and confidence are the
// evaluator's (evidence often quotes what the post-condition asks to see)
// and stay in the run log and the memory evidence.
func modelEnvelope(env runlog.Envelope) runlog.Envelope {
	if v := env.Verdict; v != nil {
		env.Verdict = &world.Verdict{Status: v.Status, Reason: v.Reason}
	}
	return env
}

// noteLine is the Task Notes line of a result, its reasons redacted before
// they are bounded (a secret cut in two is no longer found): a call that
// ran is ok or failed, with the hooks' changes to its arguments; a call
// that never ran says so and why (by which hook, or the schema).
func noteLine(r *CallResult, red *redact.Redactor) string {
	var b strings.Builder
	b.WriteString(r.Tool)
	switch {
	case !r.Executed && !r.Env.Success:
		why := strings.TrimPrefix(strings.TrimSuffix(r.Env.Reason, formatNote), "not executed: ")
		b.WriteString(": not executed: " + oneLine(red.String(why), 120))
	case r.Env.Success:
		b.WriteString(": ok")
	default:
		b.WriteString(": failed: " + oneLine(red.String(r.Env.Reason), 120))
	}
	b.WriteString(red.String(notesChanges(r.changes)))
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
