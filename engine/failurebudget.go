package engine

import (
	"fmt"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// countFailure applies the failure budgets and the loop detector to the
// turn's call; either may end the task. A call answered because the
// instruction was revised does not count. A wire-format mistake (a call
// that never ran because the model's output was malformed) counts against
// failure_budget.format only: a model that garbles its output is not a
// robot that failed to act.
func (tn *Turn) countFailure() {
	if tn.end != nil || tn.result == nil || tn.result.Revised || tn.result.Paused {
		return
	}
	r := tn.result
	h, t := tn.h, tn.t
	fb := h.spec.Safety.FailureBudget
	failed := !r.Env.Success || (r.Env.Verdict != nil && r.Env.Verdict.Status == world.VerdictFailure)
	switch {
	case r.Format:
		t.format++
		t.notes.setPhase("recovering")
	case failed:
		t.consecutive++
		t.total++
		t.notes.setPhase("recovering")
	default:
		t.consecutive = 0
		t.notes.setPhase("acting")
	}
	switch {
	case r.Format && fb.Format > 0 && t.format >= fb.Format:
		tn.terminate(runlog.DoneFailureBudget, fmt.Sprintf("%d malformed calls in this task (failure_budget.format %d)", t.format, fb.Format))
		return
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
	if n := t.loop.see(r, failed, t.observation); n >= ld.Repeats {
		what := "with no change in the observation"
		if failed {
			what = "failing the same way"
		}
		tn.terminate(runlog.DoneLoopDetected, fmt.Sprintf("the same call %s was repeated %d times in a row %s", r.Tool, n, what))
	}
}

// loopState is the loop detector's streak: a loop is repetition without
// progress, the same call (tool and arguments) repeated where each
// repetition failed with the same reason, or succeeded while the
// observation it was decided on equals the one the previous repetition was
// decided on (the previous call changed nothing the harness observes).
type loopState struct {
	key     string // tool and canonical arguments
	failure string // the streak's failure reason; "" for a streak of successes
	failed  bool
	obs     *world.Observation // the observation the last repetition was decided on
	repeats int
}

// see adds the turn's call to the streak and returns its length. obs is the
// observation the call was decided on (the one before it ran).
func (l *loopState) see(r *CallResult, failed bool, obs *world.Observation) int {
	args, _ := anyjson.Marshal(r.Args) // map keys are sorted: a canonical key
	key := r.Tool + string(args)
	reason := ""
	if failed {
		reason = failureReason(r.Env)
	}
	same := key == l.key && failed == l.failed
	if same && failed {
		same = reason == l.failure
	} else if same {
		same = sameFacts(l.obs, obs)
	}
	if same {
		l.repeats++
	} else {
		l.key, l.failed, l.failure, l.repeats = key, failed, reason, 1
	}
	l.obs = obs
	return l.repeats
}

// failureReason is what a failed call's failure says: the envelope's
// reason, else its failure verdict's.
func failureReason(env runlog.Envelope) string {
	if env.Reason == "" && env.Verdict != nil {
		return env.Verdict.Reason
	}
	return env.Reason
}
