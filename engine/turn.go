package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Turn is one turn as a context stage sees it: the handful of methods the
// lifetimes need (the observation and the Brief, a Task Notes snapshot,
// compaction), a copy of the plan (Spec), the observation read (Observe),
// a stage's own calls (CallTool) and events. The
// fixed part of the turn (decide → pre-hooks → tool → post-hooks → effects
// → record → failure budget) is the engine's own and unexported: no method
// here runs a tool outside the hook chain, reads or changes the model's
// decision, or answers a call (a test in stages pins the method set).
type Turn struct {
	// Number is the turn of the task, from 1.
	Number int

	h     *Harness
	t     *task
	group int

	resp *model.Response
	// args is the executed call's arguments, parsed once by decide.
	args   parsedArgs
	result *CallResult
	// extra are the response's calls after the first, kept in the
	// transcript to be refused one by one (one tool call per turn);
	// dropped counts those past refusedKept, refused but not kept.
	extra    []model.ToolCall
	dropped  int
	recorded bool
	end      *runlog.Report
}

// CallResult is the answered call of a turn.
type CallResult struct {
	ID, Tool string
	Args     map[string]any
	Env      runlog.Envelope
	// Executed: the tool ran (the post chain may have judged it).
	Executed bool
	// Revised: the call was answered because the instruction changed, not
	// because it failed; it does not count against the failure budget.
	Revised bool
	// Format: a wire-format mistake (unknown tool, arguments that are not
	// a JSON object or fail the tool's inputSchema); the call never ran and
	// counts against failure_budget.format only.
	Format bool
	// Paused: an operator's pause stopped the call or came before it; it
	// does not count against the failure budget.
	Paused bool
	// changes are the arguments the pre-hooks changed before it ran.
	changes []argChange
}

// Spec is a copy of the session's plan, to read: changing it changes
// nothing the session runs (the hooks, the body layer and the engine read
// their own plan), and it holds no compiled rules (the policy's). One copy
// per task, made when first asked and shared by the task's stages: a deep
// copy per turn cost the turn a fifth of its allocations.
func (tn *Turn) Spec() schema.Spec {
	if tn.t.spec == nil {
		tn.t.spec = tn.h.spec.Clone()
	}
	return *tn.t.spec
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

// Emit sends an event to the task's stream (and every sink) now.
func (tn *Turn) Emit(ev runlog.Event) { tn.h.emit(tn.t, ev) }

// Observe calls the spec's observation tool (observation.tool with its
// args) as a read: it is never physical (checked at start, and again
// here). A spec without one gets a failure envelope saying so.
func (tn *Turn) Observe(ctx context.Context) runlog.Envelope {
	o := tn.h.spec.Observation
	if o.Tool == "" {
		return runlog.Failure("no observation tool is configured (observation.tool)")
	}
	return tn.h.read(ctx, PurposeObservation, o.Tool, o.Args)
}

// CallTool is a stage's own call of a tool, by name or toolset.name. A
// tool that can move the body (physical) goes through the whole chain, as
// a model's call does: pre-hooks, the tool, post-hooks; any other tool is
// a read (PurposeStage) through the tool guard.
func (tn *Turn) CallTool(ctx context.Context, ref string, args map[string]any) runlog.Envelope {
	rt, ok := tn.h.tools.lookup(ref)
	if !ok || !rt.Contract.Physical {
		return tn.h.read(ctx, PurposeStage, ref, args)
	}
	if args == nil {
		args = map[string]any{}
	}
	call := &Call{ID: fmt.Sprintf("harness_%d_%d", tn.t.n, tn.Number), Tool: ref, Args: args, Turn: tn.Number}
	return tn.chain(ctx, call, rt).env
}

// WithScene runs f on the session's Scene Graph, with the session's turn
// clock, while tools are kept from reading it half-changed.
func (tn *Turn) WithScene(f func(g *scenegraph.Graph, clock int)) {
	tn.h.hostMu.Lock()
	defer tn.h.hostMu.Unlock()
	f(tn.h.scene, tn.h.groupN)
}

func (tn *Turn) String() string { return fmt.Sprintf("task %d turn %d", tn.t.n, tn.Number) }

// terminate ends the task with a harness report (the last timeline events
// say what led there).
func (tn *Turn) terminate(reason runlog.DoneReason, why string) {
	rep := tn.h.terminate(tn.t, reason, why)
	tn.end = &rep
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
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindInstruction, Group: tn.group, Msg: userText("Revised instruction: " + rev)})
	h.emit(t, runlog.Event{Kind: runlog.EventReplan, Text: rev})
	return true
}
