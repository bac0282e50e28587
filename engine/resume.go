package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
)

// Resuming a task another process left unfinished (it crashed, was killed
// or upgraded). The task continues from its last checkpoint (checkpoint.go)
// in this session, which was built from the spec as loaded now: its hooks,
// contracts and limits are today's, whatever the checkpoint's digest says.
// What the process was doing after that checkpoint is read from the run
// log: a call whose tool_call event has no result may or may not have run;
// the harness never runs it again (the model decides anew, on a fresh
// observation). Every Scene Graph fact is unconfirmed and the body
// uncertain until an observation; the model is told all of it in words in
// the first request. The run log continues in the same file, after a
// "resumed" safety event.

// WithResume continues the unfinished task of run directory dir instead of
// starting one: the instruction RunStream is given must be the
// checkpoint's (ResumeInfo reads it).
func WithResume(dir string) RunOption {
	return func(c *runConfig) { c.resume = dir }
}

// ResumeInfo is what an operator is told before a task resumes.
type ResumeInfo struct {
	Checkpoint *Checkpoint
	// SpecDigest is the digest of the spec loaded now; Changed says it
	// differs from the checkpoint's.
	SpecDigest string
	Changed    bool
}

// ReadResume reads what resuming dir's task in this session would continue
// from: its checkpoint, checked against the spec loaded now. A task whose
// run log shows its end cannot be resumed.
func (h *Harness) ReadResume(ctx context.Context, dir string) (ResumeInfo, error) {
	cp, err := ReadCheckpoint(ctx, dir)
	if err != nil {
		return ResumeInfo{}, err
	}
	// A task whose run log ended has nothing to resume: said now, before
	// a server listens or a body starts, not as the resumed task's error.
	if _, err := readUnfinished(ctx, dir, cp); err != nil {
		return ResumeInfo{}, err
	}
	digest, err := runlog.SpecDigest(h.spec.Files)
	if err != nil {
		return ResumeInfo{}, fmt.Errorf("spec digest: %w", err)
	}
	return ResumeInfo{Checkpoint: cp, SpecDigest: digest, Changed: digest != cp.SpecDigest}, nil
}

// unfinished is what the run log says happened after the checkpoint.
type unfinished struct {
	// calls began after the checkpoint, in order; result is nil for one
	// the process ended during.
	calls   []begunCall
	resumes int // earlier resumes of this task
	torn    int // bytes of a torn last line dropped
}

type begunCall struct {
	id, tool string
	turn     int
	args     map[string]any
	result   *runlog.Envelope
}

// readUnfinished reads dir's run log after cp: the calls begun since, and
// whether the task already ended (an error).
func readUnfinished(ctx context.Context, dir string, cp *Checkpoint) (unfinished, error) {
	var u unfinished
	torn, err := runlog.RepairTail(dir)
	if err != nil {
		return u, err
	}
	u.torn = torn
	index := map[string]int{}
	for rec, err := range runlog.ReadDir(ctx, dir, readfile.RunLog) {
		if err != nil {
			return u, err
		}
		l, err := rec.Line()
		if err != nil {
			return u, err
		}
		switch {
		case l.Kind == runlog.EventDone:
			reason := runlog.DoneReason("")
			if l.Done != nil {
				reason = l.Done.Reason
			}
			return u, fmt.Errorf("%s:%d: the task already ended (%s): nothing to resume", rec.Path, rec.N, reason)
		case l.Kind == runlog.EventSafety && l.Safety == runlog.SafetyResumed:
			// Calls an earlier resumed process began after this checkpoint
			// are not in the checkpoint either: they are all listed.
			u.resumes++
		case l.Turn <= cp.Turn:
		case l.Kind == runlog.EventToolCall:
			index[l.CallID] = len(u.calls)
			u.calls = append(u.calls, begunCall{id: l.CallID, tool: l.Tool, turn: l.Turn, args: l.Args})
		case l.Kind == runlog.EventToolResult && l.Result != nil:
			if i, ok := index[l.CallID]; ok {
				u.calls[i].result = l.Result
			}
		}
	}
	return u, nil
}

// resumeTask rebuilds the task of cfg.resume from its checkpoint and tells
// the model, the run log and the body what happened.
func (h *Harness) resumeTask(ctx context.Context, instruction string, cfg runConfig, yield func(runlog.Event) bool) *task {
	dir := cfg.resume
	t := &task{n: h.taskN + 1, instruction: instruction, cfg: cfg, yield: yield, snapshotted: -1,
		holds: map[*hold]struct{}{}, wake: make(chan struct{}, 1)}
	fail := func(err error) *task {
		t.report = &runlog.Report{Reason: runlog.DoneError, Error: fmt.Sprintf("resume %s: %v", dir, err)}
		h.hostMu.Lock()
		h.task = t
		h.hostMu.Unlock()
		return t
	}
	if cfg.preview {
		return fail(errors.New("a preview cannot resume a task"))
	}
	info, err := h.ReadResume(ctx, dir)
	if err != nil {
		return fail(err)
	}
	cp := info.Checkpoint
	if cp.Instruction != instruction {
		return fail(fmt.Errorf("the instruction %q is not the checkpoint's %q", instruction, cp.Instruction))
	}
	u, err := readUnfinished(ctx, dir, cp)
	if err != nil {
		return fail(err)
	}
	if err := h.restore(t, cp); err != nil {
		return fail(fmt.Errorf("%s: %w", CheckpointFile, err))
	}
	// The run log continues in the same file (appended), so a report reads
	// the whole task.
	sinks, err := h.openSinksIn(dir, t.n)
	if err != nil {
		return fail(err)
	}
	t.sinks, t.runDir = sinks, dir
	h.hostMu.Lock()
	h.task = t
	t.pending = h.between.take()
	// Nothing observed before the process ended is known to hold now.
	h.scene.MarkAllUnconfirmed(h.groupN + 1)
	h.hostMu.Unlock()
	h.markBodyUncertain(cp.Turn)

	told := resumeText(cp, &u, info)
	h.emit(t, runlog.Event{Kind: runlog.EventSafety, Safety: runlog.SafetyResumed, Text: string(runlog.SafetyResumed) + ": " + resumeRecord(cp, &u, info) + "\n" + told})
	for _, c := range u.calls {
		if c.result != nil || !h.physical(c.tool) {
			continue
		}
		h.emit(t, runlog.Event{Kind: runlog.EventSafety, Safety: runlog.SafetyMayHaveRun, Tool: c.tool, CallID: c.id, Args: c.args,
			Text: fmt.Sprintf("%s: %s (call %s, turn %d) began and the process ended before its result: it may or may not have run; it is not run again", runlog.SafetyMayHaveRun, c.tool, c.id, c.turn)})
	}

	if !h.startResident(ctx, t) {
		return t
	}
	if cp.Turn == 0 {
		// Checkpointed before the instruction joined Accumulated context
		// (as startTask words it).
		text := "Instruction: " + instruction
		if h.store.HasAccumulated() {
			text = fmt.Sprintf("New instruction (task %d): %s", t.n, instruction)
		}
		h.store.Append(lifetimes.Entry{Kind: lifetimes.KindInstruction, Group: h.groupN + 1, Msg: userText(text)})
	}
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindInstruction, Group: h.groupN + 1, Msg: userText(told)})
	t.notes.add(cp.Turn, "the session was resumed after its process ended; facts unconfirmed until observed")
	return t
}

// restore puts the checkpoint's state into t and the session.
func (h *Harness) restore(t *task, cp *Checkpoint) error {
	if err := h.store.LoadKept(cp.Accumulated); err != nil {
		return err
	}
	h.hostMu.Lock()
	err := h.scene.Restore(cp.Scene)
	h.hostMu.Unlock()
	if err != nil {
		return err
	}
	h.taskN, h.groupN = cp.Task, cp.Clock
	t.n, t.turn = cp.Task, cp.Turn
	t.consecutive, t.total, t.format, t.usage = cp.Consecutive, cp.Total, cp.Format, cp.Usage
	t.loop = loopState{key: cp.Loop.Key, failure: cp.Loop.Failure, failed: cp.Loop.Failed, repeats: cp.Loop.Repeats}
	t.notes = TaskNotes{Goal: cp.Notes.Goal, Phase: cp.Notes.Phase, version: 1}
	for _, e := range cp.Notes.Timeline {
		t.notes.Timeline = append(t.notes.Timeline, NoteEvent{Turn: e.Turn, Text: e.Text, tool: e.Tool, failed: e.Failed})
	}
	// Accumulated context already holds what the notes said.
	t.notes.sent, t.notes.sentGoal, t.notes.sentPhase, t.notes.sentEvents = true, t.notes.Goal, t.notes.Phase, len(t.notes.Timeline)
	for _, s := range cp.Skills {
		t.skills = append(t.skills, loadedSkill{name: s.Name, body: s.Body})
	}
	return nil
}

// physical reports whether tool's effective contract moves the body.
func (h *Harness) physical(tool string) bool {
	rt, ok := h.tools.lookup(tool)
	return ok && rt.Contract.Physical
}

// markBodyUncertain makes every body uncertain until an observation: the
// robot may have moved while no process drove it.
func (h *Harness) markBodyUncertain(turn int) {
	type resumed interface{ MarkResumed(reason string) }
	for _, g := range h.toolsets {
		if r, ok := g.Toolset.(resumed); ok {
			r.MarkResumed(fmt.Sprintf("the session was resumed after its process ended at turn %d: what the robot did meanwhile is unknown; physical calls are refused until a well-formed observation, or an operator clears it", turn))
		}
	}
}

// resumeText is what the model is told, in the first request after the
// resume and in Accumulated context from then on.
func resumeText(cp *Checkpoint, u *unfinished, info ResumeInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session resumed: the process running this task ended unexpectedly after turn %d and a new one continues it from a checkpoint. Everything above is from before the restart.", cp.Turn)
	for _, c := range u.calls {
		args, _ := anyjson.Marshal(c.args)
		if c.result == nil {
			fmt.Fprintf(&b, "\n- The call %s %s (turn %d) began but the process ended before its result: it may or may not have run. It will not be run again; do not assume either outcome.", c.tool, args, c.turn)
			continue
		}
		outcome := "succeeded"
		if !c.result.Success {
			outcome = "failed: " + oneLine(c.result.Reason, 200)
		}
		fmt.Fprintf(&b, "\n- The call %s %s (turn %d) ran and %s; its result was not kept.", c.tool, args, c.turn, outcome)
	}
	b.WriteString("\nEvery fact in the Scene Graph Brief is unconfirmed until a fresh observation shows it again, and physical calls are refused until one is taken. Observe first: the observation in this request was taken after the restart; trust it over anything earlier, then continue the task.")
	if info.Changed {
		b.WriteString("\nThe spec was changed before the restart: the safety rules and tools now in force may differ from earlier turns.")
	}
	return b.String()
}

// resumeRecord is the run log's account of the resume for an operator.
func resumeRecord(cp *Checkpoint, u *unfinished, info ResumeInfo) string {
	spec := "spec unchanged (" + info.SpecDigest + ")"
	if info.Changed {
		spec = fmt.Sprintf("spec CHANGED since the checkpoint (%s, now %s): the safety policy is the spec's as loaded now", cp.SpecDigest, info.SpecDigest)
	}
	s := fmt.Sprintf("task %d continues after turn %d (checkpoint of %s); %s", cp.Task, cp.Turn, cp.Written.Format("2006-01-02T15:04:05Z"), spec)
	if u.resumes > 0 {
		s += fmt.Sprintf("; resumed %d time(s) before", u.resumes)
	}
	if u.torn > 0 {
		s += fmt.Sprintf("; a torn last line of the run log (%d bytes) was dropped", u.torn)
	}
	return s
}

// openSinksIn opens the sinks of a resumed task: its run log in dir,
// appended to, and every Options.Sinks factory.
func (h *Harness) openSinksIn(dir string, task int) ([]taskSink, error) {
	l, err := runlog.Create(dir)
	if err != nil {
		return nil, err
	}
	sinks := []taskSink{{name: "run log", sink: l, required: h.spec.RunLog.Required}}
	info := TaskInfo{Task: task, Start: h.clock(), RunDir: dir}
	for i, f := range h.opts.Sinks {
		s, err := f(info)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("event sink %d: %w", i, err), closeSinks(sinks))
		}
		sinks = append(sinks, taskSink{name: fmt.Sprintf("event sink %d", i), sink: s})
	}
	return sinks, nil
}
