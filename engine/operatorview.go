package engine

import "time"

// What an operator's view (thea serve's console) reads of a session beside
// its event stream: the back-ends' health and the running task's notes.

// ToolsetHealth is one toolset's health as an operator sees it.
type ToolsetHealth struct {
	Toolset string `json:"toolset"`
	// Restarts counts the back-end's restarts after a crash (MCP toolsets).
	Restarts int `json:"restarts"`
	// Uncertain says why the toolset's physical calls are refused until a
	// well-formed observation or an operator's clear; empty when certain.
	Uncertain string `json:"uncertain,omitempty"`
	// UncertainSince is when the uncertainty began (zero when certain).
	UncertainSince time.Time `json:"uncertain_since,omitzero"`
	// Moving describes the physical calls in flight on the body this
	// toolset drives ("drive (base) for 1.2s"), a motion given up on (a
	// timeout, a stop) included until it really ends.
	Moving []string `json:"moving,omitempty"`
}

// restartCounter and uncertaintyReporter are what a toolset kind offers to
// report its health (the MCP toolsets do); others report a zero health.
type (
	restartCounter      interface{ Restarts() int }
	uncertaintyReporter interface{ Uncertain() string }
	uncertainSince      interface{ UncertainSince() time.Time }
	motionReporter      interface{ InFlight() []string }
)

// Health reports every toolset's restarts and uncertainty, in spec order. It
// is safe from any goroutine: the toolsets guard what it reads.
func (h *Harness) Health() []ToolsetHealth {
	out := make([]ToolsetHealth, 0, len(h.toolsets))
	for _, ts := range h.toolsets {
		th := ToolsetHealth{Toolset: ts.Name()}
		if r, ok := ts.Toolset.(restartCounter); ok {
			th.Restarts = r.Restarts()
		}
		if u, ok := ts.Toolset.(uncertaintyReporter); ok {
			th.Uncertain = u.Uncertain()
		}
		if u, ok := ts.Toolset.(uncertainSince); ok {
			th.UncertainSince = u.UncertainSince()
		}
		if m, ok := ts.Toolset.(motionReporter); ok {
			th.Moving = m.InFlight()
		}
		out = append(out, th)
	}
	return out
}

// RunningTaskNotes returns a copy of the running task's Task Notes, or of
// the last finished task's when none runs (false before any task). The
// running task changes its notes on its own goroutine without a lock, so
// while a task runs call it only from the body of the loop that consumes
// RunStream's events, which runs on that goroutine between two steps.
func (h *Harness) RunningTaskNotes() (TaskNotes, bool) {
	h.hostMu.Lock()
	t, last := h.task, h.lastNotes
	h.hostMu.Unlock()
	switch {
	case t != nil:
		return t.notes.clone(), true
	case last != nil:
		return last.clone(), true
	}
	return TaskNotes{}, false
}
