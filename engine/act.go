package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// Decide makes the turn's one model call. Before it, a replan is polled and
// cancellation checked. A response without a tool call ends the task: its
// text is the report. A model error ends the task with DoneError.
func (tn *Turn) Decide(ctx context.Context) error {
	h, t := tn.h, tn.t
	if tn.end = h.cancelled(ctx, t, "the model decision"); tn.end != nil {
		return nil
	}
	tn.pollReplan()
	h.syncResident(t)
	req := h.store.request()
	counts := h.store.counts()
	h.emit(t, Event{Kind: EventContext, Tokens: &counts})
	resp, err := h.model.Generate(ctx, req)
	h.store.consumeImages(tn.Number)
	if err != nil {
		if c := h.cancelled(ctx, t, "the model decision"); c != nil {
			tn.end = c
			return nil
		}
		return fmt.Errorf("model: %w", err)
	}
	for i := range resp.ToolCalls {
		if resp.ToolCalls[i].ID == "" {
			resp.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d_%d", t.n, tn.Number, i)
		}
	}
	tn.resp = &resp
	msg := model.Message{Role: model.RoleAssistant, ToolCalls: resp.ToolCalls}
	if resp.Text != "" {
		msg.Parts = []model.Part{{Text: resp.Text}}
	}
	h.store.append(entry{kind: kindResponse, group: tn.group, msg: msg,
		reasoning: boundMiddle(resp.Reasoning, h.spec.Context.Compaction.ReasoningMaxChars)})
	ev := Event{Kind: EventModel, Text: resp.Text}
	if len(resp.ToolCalls) > 0 {
		tn.args, tn.argsErr = parseArgs(resp.ToolCalls[0].Arguments)
		ev.Tool, ev.CallID, ev.Args = resp.ToolCalls[0].Name, resp.ToolCalls[0].ID, tn.args
	}
	h.emit(t, ev)
	if len(resp.ToolCalls) == 0 {
		tn.end = &Report{Text: resp.Text, Reason: DoneFinal}
	}
	return nil
}

// pollReplan takes an instruction revision, if any: it joins Accumulated
// context and becomes the Task Notes goal.
func (tn *Turn) pollReplan() bool {
	h, t := tn.h, tn.t
	if t.cfg.pollReplan == nil {
		return false
	}
	rev, ok := t.cfg.pollReplan()
	if !ok || rev == "" {
		return false
	}
	t.notes.setGoal(rev)
	t.notes.setPhase("replanning")
	h.store.append(entry{kind: kindInstruction, group: tn.group, msg: userText("Revised instruction: " + rev)})
	h.emit(t, Event{Kind: EventReplan, Text: rev})
	return true
}

func decodeArgs(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Execute runs the turn's one tool call through the hook chains. Extra
// calls are answered with a failure envelope stating the rule. Cancellation
// and a replan are checked before the tool runs; a call not run is answered
// too, so no tool call is ever left without a result.
func (tn *Turn) Execute(ctx context.Context) error {
	if tn.resp == nil || len(tn.resp.ToolCalls) == 0 || tn.end != nil {
		return nil
	}
	h, t := tn.h, tn.t
	calls := tn.resp.ToolCalls
	first := calls[0]
	res := callResult{id: first.ID, name: first.Name}
	for _, c := range calls[1:] {
		tn.results = append(tn.results, callResult{id: c.ID, name: c.Name, args: decodeArgs(c.Arguments), env: Failure(fmt.Sprintf(
			"not executed: one tool call per turn. Only the first call (%s) ran; call %s again in a later turn if it is still needed.", first.Name, c.Name))})
	}
	defer func() { tn.results = append([]callResult{res}, tn.results...) }()
	if tn.end = h.cancelled(ctx, t, "tool execution"); tn.end != nil {
		res.env = Failure("not executed: the task was cancelled")
		return nil
	}
	if tn.pollReplan() {
		res.env = Failure("not executed: the instruction was revised before this call ran; decide again for the revised instruction")
		res.revised = true
		return nil
	}
	if tn.argsErr != nil {
		res.env = Failure(fmt.Sprintf("invalid arguments for %s: %v", first.Name, tn.argsErr))
		return nil
	}
	res.args = tn.args
	rt, ok := h.tools.byName[first.Name]
	if !ok || rt.Contract.Hidden {
		res.env = Failure(fmt.Sprintf("unknown tool %q; available tools: %s", first.Name, h.visibleNames()))
		return nil
	}
	call := &Call{ID: first.ID, Tool: first.Name, Args: res.args, Raw: first.Arguments, Turn: tn.Number}
	cc := &CallContext{Call: call, Tool: rt, Observation: t.observation, Emit: h.queue}
	// The policy emits its hook and evaluation events through cc.Emit as they
	// happen (a confirm hook may wait on a person); they are flushed in order.
	pre := h.runPre(ctx, cc)
	h.flush(t)
	if !pre.Allowed {
		res.env = Failure(fmt.Sprintf("blocked by hook %s: %s", pre.Hook, pre.Reason))
		return nil
	}
	if pre.Args != nil {
		call.Args = pre.Args
	}
	// The chain may have waited on a person (confirm) or a clearance
	// reading: a cancellation that arrived meanwhile stops the motion.
	if tn.end = h.cancelled(ctx, t, "tool execution"); tn.end != nil {
		res.env = Failure("not executed: the task was cancelled")
		return nil
	}
	raw, err := json.Marshal(call.Args)
	if err != nil {
		res.env = Failure(fmt.Sprintf("arguments for %s cannot be encoded after hooks: %v", first.Name, err))
		return nil
	}
	h.emit(t, Event{Kind: EventToolCall, Tool: first.Name, CallID: first.ID, Args: call.Args})
	res.env = h.invoke(ctx, rt, raw)
	res.executed = true
	h.flush(t)
	post := h.runPost(ctx, cc, &res.env)
	h.flush(t)
	if post.Verdict != nil {
		res.env.Verdict = post.Verdict
	}
	for _, n := range post.Notes {
		t.notes.add(tn.Number, n)
	}
	return nil
}

// parseArgs decodes a call's arguments; they must be a JSON object (empty
// means no arguments).
func parseArgs(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	if m == nil {
		return nil, fmt.Errorf("want a JSON object, got %s", raw)
	}
	return m, nil
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
			res = PostResult{Verdict: &schema.Verdict{Status: "failure", Source: "harness",
				Reason: fmt.Sprintf("the post-execution hooks failed (%v); the outcome is unconfirmed", r)}}
		}
	}()
	return h.policy.Post(ctx, cc, env)
}
