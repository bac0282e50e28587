package body

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/thea-harness/thea/runlog"

	"github.com/thea-harness/thea/engine"
)

type reply struct {
	r   engine.BackendReply
	err error
}

// flight is one physical call on its connection, from its request until its
// reply or its back-end's death, whether or not the caller still waits.
type flight struct {
	motion *Motion
	conn   *link
	base   context.Context // the caller's values, never its end
	cancel context.CancelFunc
	done   chan reply
	stop   sync.Once
	// stopSaid is what the kind's stop answered, in a clause ("" when it
	// was not called); set inside stop.
	stopSaid string
}

// callPhysical runs a physical call holding the body's motion lock until the
// call really ends. The request is not tied to the caller's context: when the
// caller gives up (timeout, cancellation) the call stays in flight, the
// kind's stop is called, and the lock is released only by the reply or the
// back-end's death (see watch).
func (t *tool) callPhysical(ctx context.Context, args json.RawMessage) runlog.Envelope {
	ts, name := t.ts, t.def.Name
	m, why := ts.body.Begin(ctx, ts.scope, ts.name, name)
	if m == nil {
		return runlog.Failure(why)
	}
	c, reason := ts.connection(ctx)
	if c == nil {
		m.End("did not start")
		return runlog.Failure(reason)
	}
	if err := ctx.Err(); err != nil { // never send a motion nobody waits for
		m.End("did not start")
		return runlog.Failure(fmt.Sprintf("%s did not run: %v", name, err))
	}
	base := context.WithoutCancel(ctx)
	dctx, cancel := context.WithCancel(base)
	f := &flight{motion: m, conn: c, base: base, cancel: cancel, done: make(chan reply, 1)}
	if !ts.track(f) {
		cancel()
		m.End("toolset closed")
		return runlog.Failure(fmt.Sprintf("%s did not run: the %s toolset is closed", name, ts.name))
	}
	go func() {
		r, err := c.Call(dctx, engine.BackendCall{Tool: name, Args: args, Motion: &m.Motion})
		f.done <- reply{r, err}
	}()
	select {
	case r := <-f.done:
		env := t.answered(c, r)
		ts.untrack(f)
		cancel()
		m.End("answered")
		return env
	case <-ctx.Done():
		what := "was cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			what = "timed out"
		}
		ts.markUncertain(name, what)
		note := ts.interruptPlan()
		m.Abandon(what, note)
		// The task's done waits for the stop path, so its outcome is the
		// task's own record even when the task ends now (Ctrl-C).
		release := ts.holdTask(name, what)
		go ts.watch(f, what, release)
		return runlog.Failure(fmt.Sprintf("%s %s; the motion may still be running: %s. Physical calls are refused until it ends; then observe before retrying",
			name, what, note))
	}
}

// answered turns a physical call's reply into its envelope; a crash or a
// closed session makes the body uncertain.
func (t *tool) answered(c *link, r reply) runlog.Envelope {
	ts, name := t.ts, t.def.Name
	if r.err == nil {
		return r.r.Envelope
	}
	switch {
	case ts.isClosed():
		ts.markUncertain(name, "was interrupted by the session closing")
		return runlog.Failure(fmt.Sprintf("%s did not finish: the %s toolset was closed; its effect is unknown", name, ts.name))
	case errors.Is(r.err, engine.ErrBackendCrashed):
		why := ts.crashed(c, name, r.err)
		ts.markUncertain(name, "crashed")
		return runlog.Failure(why)
	}
	return runlog.Failure(fmt.Sprintf("%s failed: %v", name, r.err))
}

// track registers a flight; false once the toolset is closed.
func (ts *Toolset) track(f *flight) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return false
	}
	ts.inflight[f.motion] = f
	return true
}

func (ts *Toolset) untrack(f *flight) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	delete(ts.inflight, f.motion)
}
