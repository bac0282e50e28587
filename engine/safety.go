package engine

import (
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"strings"
)

// UncertaintyClearer is a toolset whose body's "state uncertain" block an
// operator can clear (the MCP toolsets: the body is shared by all of them).
type UncertaintyClearer interface {
	ClearUncertain()
}

// ClearUncertain is the operator's clear: every toolset that tracks the
// body's uncertainty clears it, and physical calls are allowed again. A
// motion still in flight keeps the body's motion lock; clearing never allows
// a second one. It returns how many toolsets cleared. The clear is on the
// record: a safety event naming what was uncertain, on the running task's
// stream or, between tasks, the next one's (and so in its run log).
func (h *Harness) ClearUncertain() int {
	var was []string
	for _, th := range h.Health() {
		if th.Uncertain != "" {
			was = append(was, th.Toolset+": "+th.Uncertain)
		}
	}
	n := 0
	for _, ts := range h.toolsets {
		if c, ok := ts.Toolset.(UncertaintyClearer); ok {
			c.ClearUncertain()
			n++
		}
	}
	if n > 0 {
		text := fmt.Sprintf("%s: the operator cleared the uncertain state of %d toolset(s) after checking the robot", runlog.SafetyOperatorClear, n)
		if len(was) > 0 {
			text += "; it was: " + strings.Join(was, "; ")
		} else {
			text += "; none was uncertain"
		}
		h.queue(runlog.Event{Kind: runlog.EventSafety, Safety: runlog.SafetyOperatorClear, Time: h.clock(), Text: text})
	}
	return n
}
