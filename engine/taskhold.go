package engine

import (
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"sync"
	"time"
)

// hold is work a task started whose events belong to it (a motion's stop
// path), registered by TaskStream.Hold: the task's done waits for it.
type hold struct {
	what     string
	within   time.Duration
	deadline time.Time
}

// Hold registers a hold on the running task; see TaskStream.Hold.
func (s taskStream) Hold(what string, within time.Duration) func() {
	h := s.h
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	t := h.task
	if t == nil {
		return func() {}
	}
	hd := &hold{what: what, within: within, deadline: time.Now().Add(within)}
	t.holds[hd] = struct{}{}
	var once sync.Once
	return func() {
		once.Do(func() {
			h.hostMu.Lock()
			delete(t.holds, hd)
			h.hostMu.Unlock()
			t.wakeUp()
		})
	}
}

// wakeUp tells awaitHolds that something changed; it never blocks.
func (t *task) wakeUp() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// awaitHolds delivers the task's queued events until every hold is
// released; a hold past its bound is given up with a stop_pending event (its
// later events reach the next task). The wait ignores the task's context:
// it runs precisely when that context was cancelled, and each hold is
// bounded by the stop path's own timeouts.
func (h *Harness) awaitHolds(t *task) {
	for {
		h.flush(t)
		h.hostMu.Lock()
		var next time.Time
		var expired []*hold
		now := time.Now()
		for hd := range t.holds {
			switch {
			case !now.Before(hd.deadline):
				expired = append(expired, hd)
				delete(t.holds, hd)
			case next.IsZero() || hd.deadline.Before(next):
				next = hd.deadline
			}
		}
		h.hostMu.Unlock()
		for _, hd := range expired {
			h.emit(t, runlog.Event{Kind: runlog.EventSafety, Safety: runlog.SafetyStopPending,
				Text: fmt.Sprintf("%s: %s had not ended within %s when the task ended; what it reports later reaches the next task",
					runlog.SafetyStopPending, hd.what, hd.within)})
		}
		if next.IsZero() {
			h.flush(t) // what was queued before the last release
			return
		}
		timer := time.NewTimer(time.Until(next))
		select {
		case <-t.wake:
		case <-timer.C:
		}
		timer.Stop()
	}
}
