package engine

// UncertaintyClearer is a toolset whose body's "state uncertain" block an
// operator can clear (the MCP toolsets: the body is shared by all of them).
type UncertaintyClearer interface {
	ClearUncertain()
}

// ClearUncertain is the operator's clear: every toolset that tracks the
// body's uncertainty clears it, and physical calls are allowed again. A
// motion still in flight keeps the body's motion lock; clearing never allows
// a second one. It returns how many toolsets cleared.
func (h *Harness) ClearUncertain() int {
	n := 0
	for _, ts := range h.toolsets {
		if c, ok := ts.Toolset.(UncertaintyClearer); ok {
			c.ClearUncertain()
			n++
		}
	}
	return n
}
