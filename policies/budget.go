package policies

import (
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Budget ends a task that runs away: too many failed calls in a row or in
// total (safety.failure_budget), or the same call (tool and arguments)
// repeated safety.loop_detection.repeats times in a row. One Budget per task;
// it is not safe for concurrent use (a task makes one call at a time).
type Budget struct {
	cfg         schema.Safety
	consecutive int
	total       int
	last        string
	repeats     int
}

// NewBudget starts a task's budget; a zero limit is no limit.
func NewBudget(cfg schema.Safety) *Budget { return &Budget{cfg: cfg} }

// Record counts one call and its outcome (failed: a failure envelope, a
// blocked call or a failure verdict). It returns why the task must end, or ""
// and no report to go on.
func (b *Budget) Record(tool string, args map[string]any, failed bool) (engine.DoneReason, string) {
	key := tool
	if raw, err := json.Marshal(args); err == nil { // map keys marshal sorted
		key += " " + string(raw)
	} else {
		key += fmt.Sprintf(" %v", args)
	}
	if key == b.last {
		b.repeats++
	} else {
		b.last, b.repeats = key, 1
	}
	if failed {
		b.consecutive++
		b.total++
	} else {
		b.consecutive = 0
	}
	fb, ld := b.cfg.FailureBudget, b.cfg.LoopDetection
	switch {
	case fb.Consecutive > 0 && b.consecutive >= fb.Consecutive:
		return engine.DoneFailureBudget, fmt.Sprintf("stopped after %d failed calls in a row (failure budget %d)", b.consecutive, fb.Consecutive)
	case fb.Total > 0 && b.total >= fb.Total:
		return engine.DoneFailureBudget, fmt.Sprintf("stopped after %d failed calls in this task (failure budget %d)", b.total, fb.Total)
	case ld.Enabled && ld.Repeats > 0 && b.repeats >= ld.Repeats:
		return engine.DoneLoopDetected, fmt.Sprintf("stopped: %s was called with the same arguments %d times in a row", tool, b.repeats)
	}
	return "", ""
}
