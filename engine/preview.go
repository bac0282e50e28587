package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// Preview is the first request the acting model would receive for an
// instruction, with each lifetime's estimated size, rendered without calling
// the model: an integrator audits what the model sees (post-conditions
// absent, memory and experience loaded) with `thea context`.
type Preview struct {
	Request model.Request      `json:"request"`
	Tokens  runlog.TokenCounts `json:"tokens"`
	// RefreshedMessages is how many messages at the end of Request are
	// Refreshed context: the tail, its text then its camera images (0 or 1).
	RefreshedMessages int `json:"refreshed_messages"`
	// Events are what the stages before decide emitted (the observation).
	Events []runlog.Event `json:"events,omitempty"`
}

// Preview runs task start and the stages before decide (notes, observe,
// brief, compaction) for instruction and returns the request decide would
// send. The session's Accumulated context is left as it was; the Refreshed
// context holds the fresh observation, as after any turn. No run log is
// written.
func (h *Harness) Preview(ctx context.Context, instruction string) (Preview, error) {
	if h.closed.Load() {
		return Preview{}, ErrClosed
	}
	if !h.busy.CompareAndSwap(false, true) {
		return Preview{}, ErrBusy
	}
	defer h.busy.Store(false)
	acc, taskN, groupN := h.store.SaveAccumulated(), h.taskN, h.groupN
	var p Preview
	defer func() {
		h.store.RestoreAccumulated(acc)
		h.taskN, h.groupN = taskN, groupN
		h.hostMu.Lock()
		h.task = nil
		// What a back-end reported meanwhile (a late reply) belongs to the
		// session: the next task's run log and notes get it.
		for _, ev := range p.Events {
			if ev.Kind == runlog.EventSafety {
				h.between.keep(ev)
			}
		}
		h.hostMu.Unlock()
	}()
	t := h.startTask(ctx, instruction, runConfig{preview: true}, func(ev runlog.Event) bool {
		p.Events = append(p.Events, ev)
		return true
	})
	if t.report != nil {
		return p, fmt.Errorf("task start: %s", t.report.Error)
	}
	t.turn = 1
	h.groupN++
	turn := &Turn{Number: 1, h: h, t: t, group: h.groupN}
	for _, st := range h.stages {
		if st.Name() == "decide" {
			break
		}
		if err := h.runStage(ctx, st, turn); err != nil {
			return p, fmt.Errorf("stage %s: %w", st.Name(), err)
		}
		h.flush(t)
		if turn.end != nil {
			return p, errors.New("the task ended before its first decision: " + turn.end.Text)
		}
	}
	h.syncResident(t)
	// Redacted as the model would receive it (see recordedModel).
	p.Request = lifetimes.RedactRequest(h.redactor, h.store.Request())
	// The request's messages are the session's, reused by its next
	// request: the preview keeps a copy.
	p.Request.Messages = slices.Clone(p.Request.Messages)
	p.Tokens = h.store.Counts()
	p.RefreshedMessages = h.store.RefreshedMessages()
	return p, nil
}
