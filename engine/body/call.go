package body

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/runlog"

	"github.com/thea-harness/thea/engine"
)

// maxCheckTimeout bounds the liveness check that follows a timed-out call;
// the check gets as long as the call had, up to this.
const maxCheckTimeout = time.Second

// maxHungCalls is how many calls in a row may time out on a back-end that
// still answers liveness checks (its workers all stuck) before it is restarted.
const maxHungCalls = 3

func (t *tool) Call(ctx context.Context, args json.RawMessage) runlog.Envelope {
	if t.contract.Physical {
		if !callgate.Passed(ctx) {
			// A handle held outside a session: its hooks never ran.
			return runlog.Failure(fmt.Sprintf("%s did not run: a physical tool runs only through a session's call path, after its hooks", t.def.Name))
		}
		return t.callPhysical(ctx, args)
	}
	ts := t.ts
	c, reason := ts.connection(ctx)
	if c == nil {
		return runlog.Failure(reason)
	}
	started := time.Now() // an observation is evidence from this moment on
	r, err := c.Call(ctx, engine.BackendCall{Tool: t.def.Name, Args: args})
	if err != nil {
		return t.failed(ctx, c, err)
	}
	c.hung.Store(0)
	if t.observation {
		return ts.observed(t.def.Name, r, started)
	}
	return r.Envelope
}

// failed turns a non-physical call's error into a failure envelope; a dead
// back-end is dropped, to be restarted on the next call.
func (t *tool) failed(ctx context.Context, c *link, err error) runlog.Envelope {
	ts := t.ts
	switch {
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return runlog.Failure(fmt.Sprintf("%s timed out%s", t.def.Name, ts.timedOut(ctx, c, t.def.Name)))
		}
		return runlog.Failure(fmt.Sprintf("%s was cancelled", t.def.Name))
	case ts.isClosed():
		// Close ended the connection under the call: not a crash to restart.
		return runlog.Failure(fmt.Sprintf("%s did not finish: the %s toolset was closed", t.def.Name, ts.name))
	case errors.Is(err, engine.ErrBackendCrashed) && c.killed.Load():
		return ts.interrupted(t.def.Name, err)
	case errors.Is(err, engine.ErrBackendCrashed):
		return runlog.Failure(ts.crashed(c, t.def.Name, err))
	}
	return runlog.Failure(fmt.Sprintf("%s failed: %v", t.def.Name, err))
}

// timedOut follows a non-physical call that timed out: a back-end that no
// longer answers a liveness check (frozen, deadlocked) or whose last
// maxHungCalls calls all timed out is killed, to be restarted on the next
// call; otherwise every later call would time out too. It returns what to
// add to the failure ("" when the back-end is kept). A back-end with a
// motion in flight is left to the motion's stop path.
func (ts *Toolset) timedOut(ctx context.Context, c *link, tool string) string {
	n := c.hung.Add(1)
	checkTimeout := min(maxCheckTimeout, ts.callTimeout(tool))
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), checkTimeout)
	err := c.Alive(pctx)
	cancel()
	var why string
	switch {
	case err != nil:
		why = fmt.Sprintf("did not answer a liveness check%s within %s either", ts.livenessName(), checkTimeout)
	case n >= maxHungCalls:
		why = fmt.Sprintf("answers liveness checks, but its last %d calls all timed out", n)
	default:
		return ""
	}
	if ts.moving(c) {
		return ""
	}
	ts.setLastCrash("unresponsive: the back-end " + why)
	ts.killConn(c)
	ts.logger.Warn("back-end unresponsive: killed", "tool", tool, "why", why)
	ts.emit(engine.SafetyEvent{Kind: SafetyUnresponsive, Tool: tool, Text: "the back-end " + why + "; killed"})
	return fmt.Sprintf("; the %s back-end %s, so it was killed: %s", ts.name, why, ts.restartNote())
}

func (ts *Toolset) livenessName() string {
	if ts.profile.Liveness == "" {
		return ""
	}
	return " (" + ts.profile.Liveness + ")"
}

// callTimeout is the tool's timeout: its contract's, else the toolset's,
// else maxCheckTimeout.
func (ts *Toolset) callTimeout(tool string) time.Duration {
	if d := ts.tc.Contract(tool).Timeout.D(); d > 0 {
		return d
	}
	if d := ts.cfg.Timeout; d > 0 {
		return d
	}
	return maxCheckTimeout
}

// moving tells whether a physical call is in flight on c.
func (ts *Toolset) moving(c *link) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, f := range ts.inflight {
		if f.conn == c {
			return true
		}
	}
	return false
}

// interrupted answers a non-physical call whose connection the stop path
// killed under it: not a crash (nothing is restarted or counted), and not
// retried here, since a non-physical call need not be safe to run twice
// (it may have run before the kill): the model is told to try again.
func (ts *Toolset) interrupted(tool string, err error) runlog.Envelope {
	why := fmt.Sprintf("%s was interrupted: the stop path killed the %s back-end's connection to stop a motion, so this call may or may not have run (%v); the back-end did not crash and is reconnected on the next call: try again",
		tool, ts.name, err)
	ts.logger.Info("call interrupted by the stop path's kill", "tool", tool)
	ts.emit(engine.SafetyEvent{Kind: SafetyInterrupted, Tool: tool, Envelope: runlog.Failure(why), Text: why})
	return runlog.Failure(why)
}
