package engine

import (
	"context"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The three context lifetimes, as stages change them.

// AppendNotesSnapshot states the Task Notes when they changed since the
// last time, and reports whether it did: Accumulated context gets what
// changed (a new goal or phase, the new timeline events), so each event is
// sent there once and the prefix only grows, and the Refreshed tail gets
// the whole notes (goal, phase, bounded timeline), never summarised.
func (tn *Turn) AppendNotesSnapshot() bool {
	t := tn.t
	if t.notes.version == t.snapshotted {
		return false
	}
	t.snapshotted = t.notes.version
	tn.h.store.SetNotes(t.notes.snapshot())
	if u := t.notes.update(); u != "" {
		tn.h.store.Append(lifetimes.Entry{Kind: lifetimes.KindNotes, Group: tn.group, Msg: userText(u)})
	}
	return true
}

// appendResponse appends the model's response to Accumulated context; its
// reasoning is kept (bounded by reasoning_max_chars) for compaction only,
// never re-sent, and redacted before it is bounded (a secret the cut splits
// would not be found again).
func (tn *Turn) appendResponse(msg model.Message, reasoning string) {
	tn.h.store.Append(lifetimes.Entry{Kind: lifetimes.KindResponse, Group: tn.group, Msg: msg,
		Reasoning: lifetimes.BoundResult(tn.h.redactor.String(reasoning), tn.h.spec.Context.Compaction.ReasoningMaxChars)})
}

// SetObservation replaces the Refreshed observation: its text (a header
// line, then one line a fact) and obs's camera images, stated whole at the
// end of the next request. A nil obs records text as the reason the
// observation is unavailable.
func (tn *Turn) SetObservation(text string, obs *world.Observation) {
	tn.t.observation = obs
	if tn.h.opts.Blind {
		tn.h.store.SetObservation(withheldObservation(tn.Number), nil)
		return
	}
	var images []world.Image
	if obs != nil {
		images = obs.Images
	}
	tn.h.store.SetObservation(text, images)
}

// SetBrief replaces the Refreshed Scene Graph Brief, stated whole at the end
// of the next request.
// A blind session states none: the Brief is built from observations.
func (tn *Turn) SetBrief(text string) {
	if tn.h.opts.Blind {
		text = ""
	}
	tn.h.store.SetBrief(text)
}

// request renders the decide request: Resident, Accumulated, Refreshed. Its
// messages are the session's and valid until the next Request: whoever
// keeps them copies them (see model.Model).
func (tn *Turn) request() model.Request { return tn.h.store.Request() }

// counts are the estimated tokens of each lifetime.
func (tn *Turn) counts() runlog.TokenCounts { return tn.h.store.Counts() }

// consumeImages runs after the decide call, sent or failed: every image
// just sent is consumed (images live for the one model call that consumes
// them; a tool image leaves a placeholder). The Refreshed tail is not kept:
// the next request carries the next one.
func (tn *Turn) consumeImages() { tn.h.store.ConsumeImages(tn.Number) }

// observeUsage records a model call's reported usage: it adds to the task's
// totals and calibrates the session's token estimate (estimate is the
// request's estimated size when it was sent).
func (tn *Turn) observeUsage(estimate int, u model.Usage) {
	tn.h.calib.Observe(estimate, u.InputTokens)
	r := &tn.t.usage
	r.InputTokens += u.InputTokens
	r.CachedInputTokens += u.CachedInputTokens
	r.OutputTokens += u.OutputTokens
}

// Compact applies Accumulated-context compaction when the estimated request
// reaches context_window - reserve_tokens (the high-water mark), down to
// about context.compaction.target of it (the low-water mark), so the next
// compaction is many turns away. A failed or malformed summary leaves the
// context unchanged (an event says why); the request is then over its
// budget, so the decision's budget check retries before it is sent.
func (tn *Turn) Compact(ctx context.Context) {
	h := tn.h
	h.syncResident(tn.t)
	before := h.store.Total()
	// The budget is in the provider's own count: the estimate scaled by the
	// ratio its responses reported so far.
	if !h.compactor.Due(h.calib.Scale(before)) {
		return
	}
	info, err := h.store.CompactTo(ctx, &h.compactor, tn.group, h.lowWater())
	tn.emitCompaction(info, before, err)
}

// syncResident re-renders Resident context when load_skill added a body.
func (h *Harness) syncResident(t *task) {
	h.hostMu.Lock()
	dirty := t.residentDirty
	h.hostMu.Unlock()
	if !dirty {
		return
	}
	h.refreshResident(t, h.store.Tools())
}

func userText(s string) model.Message {
	return model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: s}}}
}
