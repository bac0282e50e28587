package engine

import (
	"fmt"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// countFailure applies the failure budget and the loop detector to the
// turn's executed call; either may end the task. A call answered because
// the instruction was revised does not count.
func (tn *Turn) countFailure() {
	if tn.end != nil || tn.result == nil || tn.result.Revised {
		return
	}
	r := tn.result
	h, t := tn.h, tn.t
	failed := !r.Env.Success || (r.Env.Verdict != nil && r.Env.Verdict.Status == schema.VerdictFailure)
	if failed {
		t.consecutive++
		t.total++
		t.notes.setPhase("recovering")
	} else {
		t.consecutive = 0
		t.notes.setPhase("acting")
	}
	fb := h.spec.Safety.FailureBudget
	switch {
	case fb.Consecutive > 0 && t.consecutive >= fb.Consecutive:
		tn.terminate(runlog.DoneFailureBudget, fmt.Sprintf("%d consecutive failed calls (failure_budget.consecutive %d)", t.consecutive, fb.Consecutive))
		return
	case fb.Total > 0 && t.total >= fb.Total:
		tn.terminate(runlog.DoneFailureBudget, fmt.Sprintf("%d failed calls in this task (failure_budget.total %d)", t.total, fb.Total))
		return
	}
	ld := h.spec.Safety.LoopDetection
	if !ld.Enabled || ld.Repeats <= 0 {
		return
	}
	args, _ := anyjson.Marshal(r.Args) // map keys are sorted: a canonical key
	key := r.Tool + string(args)
	if key == t.lastKey {
		t.repeats++
	} else {
		t.lastKey, t.repeats = key, 1
	}
	if t.repeats >= ld.Repeats {
		tn.terminate(runlog.DoneLoopDetected, fmt.Sprintf("the same call %s was repeated %d times in a row", r.Tool, t.repeats))
	}
}
