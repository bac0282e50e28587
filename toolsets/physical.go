package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
)

// defaultStopGrace is how long an interrupted physical call may take to
// answer before its back-end is killed, when the spec gives no stop_grace.
const defaultStopGrace = 2 * time.Second

// defaultStopTimeout bounds the stop tool's call when the spec gives none.
const defaultStopTimeout = 2 * time.Second

type reply struct {
	res *mcp.CallToolResult
	err error
}

// flight is one physical call on its connection, from its request until its
// reply or its back-end's death, whether or not the caller still waits.
type flight struct {
	motion *Motion
	conn   *conn
	base   context.Context // the caller's values, never its end
	cancel context.CancelFunc
	done   chan reply
	stop   sync.Once
}

// callPhysical runs a physical call holding the body's motion lock until the
// call really ends. The request is not tied to the caller's context: when the
// caller gives up (timeout, cancellation) the call stays in flight, the stop
// tool is called, and the lock is released only by the reply or the
// back-end's death (see watch).
func (t *mcpTool) callPhysical(ctx context.Context, args json.RawMessage) engine.Envelope {
	ts, name := t.ts, t.def.Name
	m, why := ts.body.Begin(ctx, ts.scope, ts.name, name)
	if m == nil {
		return engine.Failure(why)
	}
	c, reason := ts.connection(ctx)
	if c == nil {
		m.End("did not start")
		return engine.Failure(reason)
	}
	if err := ctx.Err(); err != nil { // never send a motion nobody waits for
		m.End("did not start")
		return engine.Failure(fmt.Sprintf("%s did not run: %v", name, err))
	}
	base := context.WithoutCancel(ctx)
	dctx, cancel := context.WithCancel(base)
	f := &flight{motion: m, conn: c, base: base, cancel: cancel, done: make(chan reply, 1)}
	if !ts.track(f) {
		cancel()
		m.End("toolset closed")
		return engine.Failure(fmt.Sprintf("%s did not run: the %s toolset is closed", name, ts.name))
	}
	go func() {
		res, err := c.client.CallTool(dctx, mcpCallRequest(name, args))
		f.done <- reply{res, err}
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
		go ts.watch(f, what)
		return engine.Failure(fmt.Sprintf("%s %s; the motion may still be running: %s. Physical calls are refused until it ends; then observe before retrying",
			name, what, note))
	}
}

// answered turns a physical call's reply into its envelope; a crash or a
// closed session makes the body uncertain.
func (t *mcpTool) answered(c *conn, r reply) engine.Envelope {
	ts, name := t.ts, t.def.Name
	if r.err == nil {
		return toEnvelope(name, r.res)
	}
	switch {
	case ts.isClosed():
		ts.markUncertain(name, "was interrupted by the session closing")
		return engine.Failure(fmt.Sprintf("%s did not finish: the %s toolset was closed; its effect is unknown", name, ts.name))
	case isCrash(r.err):
		why := ts.crashed(c, name, r.err)
		ts.markUncertain(name, "crashed")
		return engine.Failure(why)
	}
	return engine.Failure(fmt.Sprintf("%s failed: %v", name, r.err))
}

func (ts *MCPToolset) stopGrace() time.Duration {
	if d := ts.cfg.StopGrace.D(); d > 0 {
		return d
	}
	return defaultStopGrace
}

// interruptPlan says what the harness does about an abandoned motion.
func (ts *MCPToolset) interruptPlan() string {
	if st := ts.cfg.Stop; st != nil {
		return fmt.Sprintf("the harness called the stop tool %s and kills the %s back-end if the motion has not ended within %s", st.Tool, ts.name, ts.stopGrace())
	}
	return fmt.Sprintf("no stop tool is declared, so the harness kills and restarts the %s back-end if the motion has not ended within %s", ts.name, ts.stopGrace())
}

// watch follows an abandoned physical call: it calls the stop tool, then
// waits up to stop_grace for the reply (logged and reported as a late
// reply); without one it kills the back-end (restarted on the next call).
// Only then is the motion ended and the body's lock released.
func (ts *MCPToolset) watch(f *flight, what string) {
	m := f.motion
	ts.stopMotion(f, m.Tool+" "+what)
	timer := time.NewTimer(ts.stopGrace())
	defer timer.Stop()
	select {
	case r := <-f.done:
		env := engine.Envelope{}
		switch {
		case r.err == nil:
			env = toEnvelope(m.Tool, r.res)
		case isCrash(r.err) && !ts.isClosed():
			env = engine.Failure(ts.crashed(f.conn, m.Tool, r.err))
		default:
			env = engine.Failure(fmt.Sprintf("%s failed: %v", m.Tool, r.err))
		}
		ts.logger.Warn("late reply of an abandoned physical call", "tool", m.Tool, "after", time.Since(m.Start), "success", env.Success, "reason", env.Reason)
		ts.emit(SafetyEvent{Kind: SafetyLateReply, Tool: m.Tool, Envelope: env, After: time.Since(m.Start),
			Text: fmt.Sprintf("%s answered %s after it %s", m.Tool, time.Since(m.Start).Round(time.Millisecond), what)})
	case <-timer.C:
		why := fmt.Sprintf("%s %s and did not answer within stop_grace %s", m.Tool, what, ts.stopGrace())
		ts.logger.Warn("killing the back-end of an abandoned physical call", "tool", m.Tool, "why", why)
		ts.setLastCrash("killed by the harness: " + why)
		ts.killConn(f.conn) // the whole process group; restarted on the next call
		f.cancel()          // over HTTP the request is abandoned instead
		<-f.done
		ts.emit(SafetyEvent{Kind: SafetyKilled, Tool: m.Tool, After: time.Since(m.Start),
			Envelope: engine.Failure(why), Text: "the " + ts.name + " back-end was killed: " + why})
	}
	ts.untrack(f)
	f.cancel()
	m.End("ended after being abandoned")
}

// stopMotion calls the stop tool once for f, on f's connection, bounded by
// the stop's timeout; its outcome is logged and reported.
func (ts *MCPToolset) stopMotion(f *flight, why string) {
	st := ts.cfg.Stop
	if st == nil {
		return
	}
	f.stop.Do(func() {
		timeout := st.Timeout.D()
		if timeout <= 0 {
			timeout = defaultStopTimeout
		}
		ctx, cancel := context.WithTimeout(f.base, timeout)
		defer cancel()
		env := engine.Envelope{}
		args, err := json.Marshal(st.Args)
		if err == nil {
			var res *mcp.CallToolResult
			if res, err = f.conn.client.CallTool(ctx, mcpCallRequest(st.Tool, args)); err == nil {
				env = toEnvelope(st.Tool, res)
			}
		}
		if err != nil {
			env = engine.Failure(fmt.Sprintf("the stop tool %s failed: %v", st.Tool, err))
		}
		ts.logger.Warn("stop tool called", "stop", st.Tool, "tool", f.motion.Tool, "why", why, "success", env.Success, "reason", env.Reason)
		ts.emit(SafetyEvent{Kind: SafetyStop, Tool: f.motion.Tool, Envelope: env, After: time.Since(f.motion.Start),
			Text: fmt.Sprintf("stop tool %s called because %s", st.Tool, why)})
	})
}

// track registers a flight; false once the toolset is closed.
func (ts *MCPToolset) track(f *flight) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return false
	}
	ts.inflight[f.motion] = f
	return true
}

func (ts *MCPToolset) untrack(f *flight) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	delete(ts.inflight, f.motion)
}
