package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/schema"
)

// Turn is one turn as the stages see it: one model decision and at most one
// tool execution. The engine owns the session (context store, task
// lifecycle, compaction mechanics); stages do the turn's work through these
// methods, so a new stage needs no engine code.
type Turn struct {
	// Number is the turn of the task, from 1.
	Number int

	h     *Harness
	t     *task
	group int

	resp     *model.Response
	args     decisionArgs
	results  []CallResult
	recorded bool
	end      *Report
}

// CallResult is one answered call of a turn.
type CallResult struct {
	ID, Tool string
	Args     map[string]any
	Env      Envelope
	// Executed: the tool ran (the post chain may have judged it).
	Executed bool
	// Revised: the call was answered because the instruction changed, not
	// because it failed; it does not count against the failure budget.
	Revised bool
}

// Spec is the session's plan.
func (tn *Turn) Spec() *schema.Spec { return tn.h.spec }

// Task is the number of the running task in the session, from 1.
func (tn *Turn) Task() int { return tn.t.n }

// Ended reports whether the task ends with this turn.
func (tn *Turn) Ended() bool { return tn.end != nil }

// End ends the task after the running stage with rep.
func (tn *Turn) End(rep Report) { tn.end = &rep }

// Terminate ends the task with a harness report (the last timeline events
// say what led there).
func (tn *Turn) Terminate(reason DoneReason, why string) {
	rep := tn.h.terminate(tn.t, reason, why)
	tn.end = &rep
}

// Cancelled checks cooperative cancellation (the context and should_cancel)
// before where; when cancelled it emits the cancel event and ends the task.
func (tn *Turn) Cancelled(ctx context.Context, where string) bool {
	if c := tn.h.cancelled(ctx, tn.t, where); c != nil {
		tn.end = c
		return true
	}
	return false
}

// PollReplan takes an instruction revision, if any: it joins Accumulated
// context and becomes the Task Notes goal.
func (tn *Turn) PollReplan() bool {
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

// Emit sends an event to the task's stream (and every sink) now.
func (tn *Turn) Emit(ev Event) { tn.h.emit(tn.t, ev) }

// Flush delivers events queued by tools and hooks from their goroutines.
func (tn *Turn) Flush() { tn.h.flush(tn.t) }

// CallTool calls a tool for the harness itself (observation, evidence),
// by name or toolset.name, bypassing the model but never the guard.
func (tn *Turn) CallTool(ctx context.Context, ref string, args map[string]any) Envelope {
	return tn.h.CallTool(ctx, ref, args)
}

// Model is the acting model.
func (tn *Turn) Model() model.Model { return tn.h.model }

// TakeNotesSnapshot returns a whole Task Notes snapshot (goal, phase,
// bounded timeline) when they changed since the last one, and marks them
// snapshotted.
func (tn *Turn) TakeNotesSnapshot() (string, bool) {
	t := tn.t
	if t.notes.version == t.snapshotted {
		return "", false
	}
	t.snapshotted = t.notes.version
	return t.notes.snapshot(), true
}

// Note adds a line to the Task Notes timeline at this turn.
func (tn *Turn) Note(text string) { tn.t.notes.add(tn.Number, text) }

// Observation is the task's latest Observation (nil when unavailable).
func (tn *Turn) Observation() *schema.Observation { return tn.t.observation }

// WithScene runs f on the session's Scene Graph, with the session's turn
// clock, while tools are kept from reading it half-changed.
func (tn *Turn) WithScene(f func(g *scenegraph.Graph, clock int)) {
	tn.h.hostMu.Lock()
	defer tn.h.hostMu.Unlock()
	f(tn.h.scene, tn.h.groupN)
}

// Decision is the turn's model response, once decide has run.
func (tn *Turn) Decision() *model.Response { return tn.resp }

// SetDecision records the turn's model response.
func (tn *Turn) SetDecision(resp *model.Response) { tn.resp, tn.args = resp, decisionArgs{} }

// AddResult answers one call of the turn.
func (tn *Turn) AddResult(r CallResult) { tn.results = append(tn.results, r) }

// Results are the turn's answered calls, the executed one first.
func (tn *Turn) Results() []CallResult { return tn.results }

// PutFirst moves the result of the call that was executed (or would have
// been) to the front, ahead of the extra calls answered before it.
func (tn *Turn) PutFirst(r CallResult) { tn.results = append([]CallResult{r}, tn.results...) }

// Tool finds a tool the model may call (hidden tools are not found).
func (tn *Turn) Tool(name string) (*RegisteredTool, bool) {
	rt, ok := tn.h.tools.byName[name]
	if !ok || rt.Contract.Hidden {
		return nil, false
	}
	return rt, true
}

// VisibleTools lists the tools the model may call, for failure reasons.
func (tn *Turn) VisibleTools() string { return tn.h.visibleNames() }

// NewCallContext prepares one call for the hook chains; the policy emits
// its hook and evaluation events through it as they happen.
func (tn *Turn) NewCallContext(call *Call, rt *RegisteredTool) *CallContext {
	return &CallContext{Call: call, Tool: rt, Observation: tn.t.observation, Emit: tn.h.queue}
}

// Pre runs the pre-execution chain; a policy that panics blocks the call.
func (tn *Turn) Pre(ctx context.Context, cc *CallContext) PreResult { return tn.h.runPre(ctx, cc) }

// Post runs the post-execution chain; a policy that panics gives a failure
// verdict.
func (tn *Turn) Post(ctx context.Context, cc *CallContext, env *Envelope) PostResult {
	return tn.h.runPost(ctx, cc, env)
}

// Invoke calls a tool with encoded arguments; a panic is a failure envelope.
func (tn *Turn) Invoke(ctx context.Context, rt *RegisteredTool, raw []byte) Envelope {
	return tn.h.invoke(ctx, rt, raw)
}

// ErrorEnd ends the task with an error report.
func (tn *Turn) ErrorEnd(err error) {
	tn.end = &Report{Reason: DoneError, Error: err.Error()}
}

func (tn *Turn) String() string { return fmt.Sprintf("task %d turn %d", tn.t.n, tn.Number) }
