package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/thea-harness/thea/runlog"
)

// The token budget of a decide request is context_window - reserve_tokens
// in the provider's own count: the harness's estimate scaled by the
// calibration learnt from reported usage (h.calib). A request is within it
// when that count is below the budget.

// budget is context_window - reserve_tokens, or 0 for a spec built in Go
// without a window (schema.Load always gives one).
func (h *Harness) budget() int {
	c := h.spec.Context.Compaction
	if c.ContextWindow <= 0 {
		return 0
	}
	return c.ContextWindow - c.ReserveTokens
}

// estimateFor is the largest estimate whose scaled count stays below
// tokens, the provider's count.
func (h *Harness) estimateFor(tokens int) int {
	return max(0, int(math.Floor(float64(tokens-1)/h.calib.Ratio())))
}

// lowWater is the estimate a compaction aims for: context.compaction.target
// of the budget, so the request has room to grow for many turns before the
// next compaction.
func (h *Harness) lowWater() int {
	return h.estimateFor(int(float64(h.budget()) * h.spec.Context.Compaction.Target))
}

// fitBudget runs just before the decide request is rendered. A request
// over the budget sheds what the spec allows, in order: a compaction that
// keeps of the recent turns only what fits (compaction on), then its
// images; if it is still over, the turn fails with a report naming the
// numbers and the part that is too big. It returns nil when the request
// fits.
func (tn *Turn) fitBudget(ctx context.Context) *runlog.Report {
	h := tn.h
	limit := h.budget()
	if limit <= 0 || h.calib.Scale(h.store.Total()) < limit {
		return nil
	}
	var compactErr error
	if h.spec.Context.Compaction.Enabled && h.store.HasAccumulated() {
		before := h.store.Total()
		info, err := h.store.CompactTo(ctx, &h.compactor, tn.group, h.estimateFor(limit))
		tn.emitCompaction(info, before, err)
		if h.calib.Scale(h.store.Total()) < limit {
			return nil
		}
		compactErr = err
	}
	if h.store.LeaveOutImages(fmt.Sprintf("the request would exceed its budget of %d tokens", limit)) > 0 &&
		h.calib.Scale(h.store.Total()) < limit {
		return nil
	}
	return &runlog.Report{Reason: runlog.DoneError, Error: tn.overBudget(limit, compactErr)}
}

// overBudget says why a request cannot be sent: its size against the
// budget, each lifetime's share, and which one to shrink.
func (tn *Turn) overBudget(limit int, compactErr error) string {
	h := tn.h
	c := h.spec.Context.Compaction
	n := h.store.Counts()
	scale := func(x int) int { return h.calib.Scale(x) }
	why := "Accumulated context is what compaction keeps: the checkpoint, the latest Task Notes entry and the turn in progress"
	switch {
	case scale(n.Resident) >= limit:
		why = "Resident context alone (the system prompt, Memory, the Embodiment Profile, the skills and the tool definitions) exceeds the budget: shorten it or raise context_window"
	case scale(n.Refreshed) >= limit-scale(n.Resident):
		why = "the Refreshed tail (the Scene Graph Brief and the observation) does not fit beside Resident context: shorten the observation or raise context_window"
	case !c.Enabled:
		why = "compaction is off (context.compaction.enabled), so Accumulated context only grows: turn it on or raise context_window"
	case compactErr != nil:
		why = "the compaction that would have made room failed: " + compactErr.Error()
	}
	return fmt.Sprintf("the decide request would be %d tokens (estimated %d, scaled by %.2f to the provider's count), over the budget of %d (context.compaction context_window %d - reserve_tokens %d): Resident %d, Refreshed %d, Accumulated %d estimated tokens; %s",
		scale(n.Total), n.Total, h.calib.Ratio(), limit, c.ContextWindow, c.ReserveTokens, n.Resident, n.Refreshed, n.Accumulated, why)
}

// emitCompaction reports a compaction that started from before estimated
// tokens and ended with err (nil: done).
func (tn *Turn) emitCompaction(info runlog.CompactionInfo, before int, err error) {
	h := tn.h
	info.TokensBefore = before
	if err != nil {
		info.Error = err.Error()
		info.TokensAfter = before
		info.MessagesAfter = info.MessagesBefore
		h.emit(tn.t, runlog.Event{Kind: runlog.EventCompaction, Text: "compaction failed: " + err.Error(), Compaction: &info})
		return
	}
	info.TokensAfter = h.store.Total()
	h.emit(tn.t, runlog.Event{Kind: runlog.EventCompaction, Text: info.Source, Compaction: &info})
}
