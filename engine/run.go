package engine

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// task is the state of the running task.
type task struct {
	n           int
	instruction string
	cfg         runConfig
	yield       func(runlog.Event) bool
	stopped     bool // the consumer stopped reading: emit nothing more
	yielding    bool // inside the consumer's loop body (a panic there is its own)
	sinks       []taskSink
	runDir      string         // the run-log directory; empty when the run log is off
	incomplete  []string       // what each failed sink lost, for the report
	halt        *runlog.Report // set when a required run log failed: the task stops
	notes       TaskNotes
	snapshotted int // notes version last snapshotted; -1: none yet
	// spec is the task's copy of the plan for its stages (Turn.Spec),
	// made when first asked.
	spec *schema.Spec
	turn int

	skills        []loadedSkill
	residentDirty bool
	memory        string
	pending       []runlog.Event
	observation   *world.Observation
	// holds are the stop paths the task's done waits for (see TaskStream.Hold);
	// wake is signalled when one ends or an event is queued. Guarded by
	// Harness.hostMu.
	holds map[*hold]struct{}
	wake  chan struct{}

	consecutive, total int
	format             int // malformed calls (failure_budget.format)
	usage              model.Usage
	loop               loopState
	report             *runlog.Report
	trace              memoryTrace // consolidation evidence
	cp                 checkpointCache
}

type loadedSkill struct{ name, body string }

// Run runs one task to its end and returns its report. A task ended by an
// error returns the report and the error; ErrBusy when another task runs.
func (h *Harness) Run(ctx context.Context, instruction string) (runlog.Report, error) {
	return h.run(ctx, instruction, nil, func(runlog.Event) bool { return true })
}

// RunStream runs one task, yielding its events. A fully consumed stream
// yields exactly one EventDone, last; after the consumer stops early no
// more events are yielded and the task ends at its next step.
func (h *Harness) RunStream(ctx context.Context, instruction string, opts ...RunOption) iter.Seq[runlog.Event] {
	return func(yield func(runlog.Event) bool) {
		_, _ = h.run(ctx, instruction, opts, yield) // the report travels in the done event
	}
}

func (h *Harness) run(ctx context.Context, instruction string, opts []RunOption, yield func(runlog.Event) bool) (runlog.Report, error) {
	var cfg runConfig
	for _, o := range opts {
		o(&cfg)
	}
	if h.closed.Load() {
		return h.refuse(yield, ErrClosed)
	}
	if !h.busy.CompareAndSwap(false, true) {
		return h.refuse(yield, ErrBusy)
	}
	defer h.busy.Store(false)

	var t *task
	if cfg.resume != "" {
		t = h.resumeTask(ctx, instruction, cfg, yield)
	} else {
		t = h.startTask(ctx, instruction, cfg, yield)
	}
	rep := h.loop(ctx, t)
	// A stop path the task started ends in its record, before consolidation
	// reads the notes and before done.
	h.awaitHolds(t)
	h.rememberTask(ctx, t, rep)
	// The report returned is redacted like the done event that carries it.
	rep = redact.Value(h.redactor, h.finish(t, rep))
	if rep.Reason == runlog.DoneError {
		return rep, fmt.Errorf("task %d: %s", t.n, rep.Error)
	}
	return rep, nil
}

// refuse answers a task that cannot start with a single done event.
func (h *Harness) refuse(yield func(runlog.Event) bool, err error) (runlog.Report, error) {
	rep := runlog.Report{Reason: runlog.DoneError, Error: err.Error(), Text: "Task not started: " + err.Error()}
	yield(runlog.Event{Kind: runlog.EventDone, Time: h.clock(), Done: &rep})
	return rep, err
}

// startTask resets Task Notes, reads Memory and tool experience, assembles
// the visible Tool Definitions and appends the instruction.
func (h *Harness) startTask(ctx context.Context, instruction string, cfg runConfig, yield func(runlog.Event) bool) *task {
	h.taskN++
	t := &task{n: h.taskN, instruction: instruction, cfg: cfg, yield: yield, snapshotted: -1,
		holds: map[*hold]struct{}{}, wake: make(chan struct{}, 1)}
	t.notes.reset(instruction)
	h.hostMu.Lock()
	h.task = t
	if !cfg.preview { // a preview leaves them to the next task's run log
		t.pending = h.between.take()
	}
	// The graph shows this task's turns from now on (one clock per request).
	h.scene.BeginTask(t.n, h.groupN)
	h.hostMu.Unlock()
	if !cfg.preview { // a preview writes no run log and feeds no sink
		info := TaskInfo{Task: t.n, Start: h.clock()}
		if sinks, err := h.openSinks(&info); err != nil {
			t.report = &runlog.Report{Reason: runlog.DoneError, Error: err.Error()}
		} else {
			t.sinks, t.runDir = sinks, info.RunDir
			h.checkpoint(t) // before any event: a task killed at once resumes
		}
	}
	h.emit(t, runlog.Event{Kind: runlog.EventTaskStart, Text: instruction, Episode: h.episodeInfo()})
	if t.report != nil {
		return t
	}
	if !h.startResident(ctx, t) {
		return t
	}
	text := "Instruction: " + instruction
	if h.store.HasAccumulated() {
		text = fmt.Sprintf("New instruction (task %d): %s", t.n, instruction)
	}
	h.store.Append(lifetimes.Entry{Kind: lifetimes.KindInstruction, Group: h.groupN + 1, Msg: userText(text)})
	return t
}

// refreshResident re-renders the Resident system message with these tool
// definitions (task start, or a skill body loaded during the task).
// startResident reads the memory summary and the tools and fills the
// task's Resident context; on an error it sets the task's report and
// returns false. A new task and a resumed one both start here.
func (h *Harness) startResident(ctx context.Context, t *task) bool {
	mem, err := h.memorySummary(ctx)
	if err != nil {
		t.report = &runlog.Report{Reason: runlog.DoneError, Error: err.Error()}
		return false
	}
	t.memory = mem
	tools, err := h.assembleTools(ctx)
	if err != nil {
		t.report = &runlog.Report{Reason: runlog.DoneError, Error: err.Error()}
		return false
	}
	h.refreshResident(t, tools)
	return true
}

func (h *Harness) refreshResident(t *task, tools []model.ToolDef) {
	h.hostMu.Lock()
	skills := append([]loadedSkill(nil), t.skills...)
	t.residentDirty = false
	h.hostMu.Unlock()
	parts := []string{h.spec.SystemPrompt}
	if t.memory != "" {
		parts = append(parts, "Memory (from earlier tasks):\n"+t.memory)
	}
	parts = append(parts, h.profile)
	if h.catalog != "" {
		parts = append(parts, h.catalog)
	}
	for _, s := range skills {
		parts = append(parts, fmt.Sprintf("Skill %q (loaded):\n%s", s.name, s.body))
	}
	h.store.SetResident(joinNonEmpty(parts...), tools)
}

// loop runs turns until the task ends.
func (h *Harness) loop(ctx context.Context, t *task) runlog.Report {
	if t.report != nil {
		return *t.report
	}
	for {
		if t.halt != nil {
			return *t.halt
		}
		if max := h.spec.Safety.MaxTurns; max > 0 && t.turn >= max {
			return h.terminate(t, runlog.DoneMaxTurns, fmt.Sprintf("the turn limit (max_turns %d) was reached", max))
		}
		if end := h.awaitOperator(ctx, t); end != nil {
			return *end
		}
		t.turn++
		h.groupN++
		turn := &Turn{Number: t.turn, h: h, t: t, group: h.groupN}
		for _, st := range h.stages {
			if turn.resp == nil && h.pause.paused() {
				break // an operator took over before the decision: no request
			}
			if err := h.runStage(ctx, st, turn); err != nil {
				turn.end = &runlog.Report{Reason: runlog.DoneError, Error: fmt.Sprintf("stage %s: %v", st.Name(), err)}
			}
			h.flush(t)
			if t.stopped && turn.end == nil {
				turn.end = &runlog.Report{Reason: runlog.DoneCancelled, Text: "The consumer stopped reading the event stream."}
			}
			if t.halt != nil && turn.end == nil {
				turn.end = t.halt
			}
			if turn.end != nil {
				break
			}
		}
		turn.settle()
		if turn.end != nil {
			return *turn.end
		}
		h.checkpoint(t)
	}
}

// runStage runs one stage; a stage that panics ends the task with an error
// (one done event still closes the stream). A panic raised by the consumer's
// own loop body, inside yield, is not ours to absorb: it propagates.
func (h *Harness) runStage(ctx context.Context, st Stage, turn *Turn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if turn.t.yielding {
				panic(r)
			}
			h.log.Error("stage panicked", "stage", st.Name(), "panic", r)
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return st.Run(ctx, turn)
}

// terminate builds the report of a task the harness ends.
func (h *Harness) terminate(t *task, reason runlog.DoneReason, why string) runlog.Report {
	var b strings.Builder
	fmt.Fprintf(&b, "Task ended by the harness after %d turns: %s.", t.turn, why)
	ev := t.notes.Timeline
	if len(ev) > 3 {
		ev = ev[len(ev)-3:]
	}
	for _, e := range ev {
		fmt.Fprintf(&b, "\n- turn %d: %s", e.Turn, e.Text)
	}
	return runlog.Report{Text: b.String(), Reason: reason}
}

// finish emits the one terminal done event and closes the task.
func (h *Harness) finish(t *task, rep runlog.Report) runlog.Report {
	rep.Turns = t.turn
	rep.RunDir = t.runDir
	rep.Usage = t.usage
	if rep.Reason == runlog.DoneError && rep.Text == "" {
		rep.Text = "Task ended by an error: " + rep.Error
	}
	h.flush(t)
	for _, s := range t.incomplete {
		rep.Text += "\n" + s
	}
	notes := t.notes.clone()
	h.hostMu.Lock()
	h.lastNotes = &notes
	h.hostMu.Unlock()
	h.emit(t, runlog.Event{Kind: runlog.EventDone, Text: rep.Text, Done: &rep})
	if err := closeSinks(t.sinks); err != nil {
		h.log.Error("event sink close", "err", err)
	}
	h.hostMu.Lock()
	h.task = nil
	h.between.keep(t.pending...) // queued after the last flush
	h.hostMu.Unlock()
	return rep
}

// emit stamps an event and publishes it on the bus: redacted once, then
// written to every sink and yielded unless the consumer has stopped.
func (h *Harness) emit(t *task, ev runlog.Event) {
	ev.Time = h.clock()
	ev.Task = t.n
	ev.Turn = t.turn
	h.publish(t, ev)
}

// flush delivers events queued by tools and hooks.
func (h *Harness) flush(t *task) {
	h.hostMu.Lock()
	pending := t.pending
	t.pending = nil
	h.hostMu.Unlock()
	for _, ev := range pending {
		// A motion that answered after its call was given up on still
		// matters to the model: the body may have moved.
		if ev.Kind == runlog.EventSafety && ev.Safety == runlog.SafetyLateReply {
			t.notes.add(t.turn, oneLine(ev.Text, 160))
		}
		h.emit(t, ev)
	}
}

// cancelled checks cooperative cancellation: the context and should_cancel.
func (h *Harness) cancelled(ctx context.Context, t *task, where string) *runlog.Report {
	why := ""
	switch {
	case ctx.Err() != nil:
		why = "context: " + ctx.Err().Error()
	case t.cfg.shouldCancel != nil && t.cfg.shouldCancel():
		why = "should_cancel"
	default:
		return nil
	}
	h.emit(t, runlog.Event{Kind: runlog.EventCancel, Text: fmt.Sprintf("cancelled before %s (%s)", where, why)})
	rep := h.terminate(t, runlog.DoneCancelled, "cancelled before "+where+" ("+why+")")
	return &rep
}

// LastTaskNotes returns a copy of the finished notes of the last task (the
// input of memory consolidation); false before any task ended.
func (h *Harness) LastTaskNotes() (TaskNotes, bool) {
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if h.lastNotes == nil {
		return TaskNotes{}, false
	}
	return h.lastNotes.clone(), true
}
