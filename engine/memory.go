package engine

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/thea-harness/thea/engine/memory"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The engine's side of engine/memory: at task end consolidateTask runs
// once over the task's Task Notes and evidence (memoryevidence.go); the
// summaries of MEMORY.md and of each tool's experience are read back for
// Resident context.

// memoryNotes is Task Notes as engine/memory reads them.
func memoryNotes(n TaskNotes) memory.Notes {
	out := memory.Notes{Goal: n.Goal, Phase: n.Phase, Timeline: make([]string, len(n.Timeline))}
	for i, e := range n.Timeline {
		out.Timeline[i] = "turn " + strconv.Itoa(e.Turn) + ": " + e.Text
	}
	return out
}

// memoryConfig is the spec's memory section for engine/memory; every entry
// written passes the session's redactor.
func memoryConfig(dir string, m schema.Memory, r *redact.Redactor) memory.Config {
	return memory.Config{Dir: dir, Threshold: m.Consolidation.Threshold, MaxEntries: m.MaxEntries, MaxFileBytes: m.MaxFileBytes,
		Redactor: r}
}

// consolidateTask runs the task-end consolidation and returns the memory
// event to emit. taskN stamps the entries ("t<N>"); tools are the session's
// tool names, the only valid tool scopes.
func consolidateTask(ctx context.Context, m model.Model, cfg memory.Config, notes TaskNotes, tr *memoryTrace, tools []string, taskN int, now time.Time) runlog.Event {
	in := memory.Input{Notes: memoryNotes(notes), Evidence: tr.evidence, Answers: tr.answers, Tools: tools,
		Task: "t" + strconv.Itoa(taskN), Now: now}
	res, err := memory.Consolidate(ctx, m, cfg, in)
	text := res.String()
	if err != nil {
		text += "; error: " + err.Error()
	}
	return runlog.Event{Kind: runlog.EventMemory, Text: text}
}

// experienceSummary is a tool's experience for its description; a tool
// whose name cannot name a file has none.
func experienceSummary(ctx context.Context, dir, tool string, maxChars int) (string, error) {
	if dir == "" || memory.ValidToolName(tool) != nil {
		return "", nil
	}
	s, err := memory.Summary(ctx, dir, tool, maxChars)
	if err != nil {
		return "", fmt.Errorf("tool experience of %s: %w", tool, err)
	}
	return s, nil
}

// memorySummary is MEMORY.md for Resident context, through the same bounded
// summary as tool experience: at most memory.memory_chars characters
// however long the file (a file past the memory-file limit is refused).
func (h *Harness) memorySummary(ctx context.Context) (string, error) {
	if h.memoryDir == "" {
		return "", nil
	}
	s, err := memory.MemorySummary(ctx, h.memoryDir, h.spec.Memory.MemoryChars)
	if err != nil {
		return "", fmt.Errorf("read memory: %w", err)
	}
	return s, nil
}

// buildConsolidator picks the consolidation model: memory.consolidation.model,
// else the main model. Consolidation is off without a memory dir.
func (h *Harness) buildConsolidator() error {
	c := h.spec.Memory.Consolidation
	if !c.Enabled || h.memoryDir == "" {
		return nil
	}
	h.consolidator = h.model
	if c.Model != nil {
		m, err := h.newModel(*c.Model)
		if err != nil {
			return fmt.Errorf("memory.consolidation.model: %w", err)
		}
		h.consolidator = m
	}
	return nil
}

// rememberTask consolidates a task that ran to an end of its own (a final
// answer or a harness limit: failures teach too) and emits the memory
// event before the done event. A cancelled task, one ended by an error or
// one that never ran a turn is not consolidated.
func (h *Harness) rememberTask(ctx context.Context, t *task, rep runlog.Report) {
	if h.consolidator == nil || t.turn == 0 || ctx.Err() != nil || rep.Reason == runlog.DoneCancelled || rep.Reason == runlog.DoneError {
		return
	}
	h.flush(t)
	done := rep
	done.Turns = t.turn
	t.trace.observe(runlog.Event{Kind: runlog.EventDone, Turn: t.turn, Done: &done})
	ev := consolidateTask(ctx, h.consolidator, memoryConfig(h.memoryDir, h.spec.Memory, h.redactor), t.notes.clone(), &t.trace,
		h.tools.names, t.n, h.clock())
	h.flush(t) // the consolidation call's model_call event comes first
	h.emit(t, ev)
}
