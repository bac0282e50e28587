package body

import (
	"context"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
)

// connection returns the live connection, restarting a crashed back-end with
// backoff within the restart budget. A restart is bounded by start_timeout,
// not by the call that found the back-end down: a call whose timeout is
// shorter than the back-end's start-up returns "restarting, try again" while
// the restart goes on, instead of failing it and burning the restart budget.
func (ts *Toolset) connection(ctx context.Context) (*link, string) {
	restarting := fmt.Sprintf("the %s back-end is restarting after a crash; try again", ts.name)
	select {
	case ts.startSem <- struct{}{}:
	case <-ctx.Done():
		return nil, restarting
	}
	held := true
	defer func() {
		if held {
			<-ts.startSem
		}
	}()
	ts.mu.Lock()
	closed, c, restarts, backoff, lastCrash, stopKilled := ts.closed, ts.conn, ts.restarts, ts.backoff, ts.lastCrash, ts.stopKilled
	ts.mu.Unlock()
	if stopKilled {
		backoff = 0 // the stop path's own kill: nothing is wrong with the back-end
	}
	switch {
	case closed:
		return nil, fmt.Sprintf("the %s toolset is closed", ts.name)
	case c != nil:
		return c, ""
	case restarts >= ts.cfg.MaxRestarts && !stopKilled:
		return nil, fmt.Sprintf("the %s back-end is down (%s) and was restarted %d times, the most allowed: its tools are unavailable, tell the user",
			ts.name, lastCrash, restarts)
	}
	if backoff > 0 {
		t := time.NewTimer(backoff)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, restarting
		}
	}
	type started struct {
		c   *link
		why string
	}
	done := make(chan started, 1)
	held = false // the restart releases it
	go func() {
		defer func() { <-ts.startSem }()
		c, why := ts.restart(context.WithoutCancel(ctx), lastCrash)
		done <- started{c, why}
	}()
	select {
	case r := <-done:
		return r.c, r.why
	case <-ctx.Done():
		return nil, restarting
	}
}

// restart starts the back-end again and records the outcome.
func (ts *Toolset) restart(ctx context.Context, lastCrash string) (*link, string) {
	c, err := ts.connect(ctx)
	ts.mu.Lock()
	// A restart after the stop path's kill is the harness's own doing, not
	// a crash: it spends none of max_restarts and doubles no backoff.
	counted := !ts.stopKilled
	if counted {
		ts.restarts++
		ts.backoff *= 2
	}
	n, budget := ts.restarts, ts.cfg.MaxRestarts
	what := fmt.Sprintf("restart %d of at most %d", n, budget)
	if !counted {
		what = "a reconnection after the stop path's kill (not counted against max_restarts)"
	}
	if err != nil {
		ts.lastCrash = err.Error()
		ts.stopKilled = false // it did not come back: the next try is a restart
		ts.mu.Unlock()
		ts.logger.Warn("back-end restart failed", "restart", n, "err", err)
		ts.emit(engine.SafetyEvent{Kind: SafetyRestartFailed, Text: fmt.Sprintf("%s: %v", what, err)})
		return nil, fmt.Sprintf("the %s back-end could not be restarted: %v", ts.name, err)
	}
	if ts.closed { // closed while restarting
		ts.mu.Unlock()
		c.Close()
		return nil, fmt.Sprintf("the %s toolset is closed", ts.name)
	}
	ts.conn, ts.stopKilled = c, false
	ts.mu.Unlock()
	ts.logger.Info("back-end restarted", "restart", n, "counted", counted)
	ts.emit(engine.SafetyEvent{Kind: SafetyRestarted, Text: fmt.Sprintf("%s, after: %s", what, lastCrash)})
	return c, ""
}

// dropConn forgets a crashed connection (if still current) and ends it.
func (ts *Toolset) dropConn(c *link) {
	ts.forget(c)
	c.Close()
}

// killConn forgets a connection (if still current) and kills its back-end.
func (ts *Toolset) killConn(c *link) {
	ts.forget(c)
	c.Kill()
}

// stopKill is the stop path's kill of c: a deliberate end, so a call that
// loses its connection to it was interrupted, not crashed, and the
// reconnection that follows is not counted as a restart.
func (ts *Toolset) stopKill(c *link) {
	c.killed.Store(true)
	ts.mu.Lock()
	if ts.conn == c {
		ts.stopKilled = true
	}
	ts.mu.Unlock()
	ts.killConn(c)
}

func (ts *Toolset) forget(c *link) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.conn == c {
		ts.conn = nil
	}
}

func (ts *Toolset) setLastCrash(why string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.lastCrash = why
}

// restartNote tells the model what follows a crash: a restart on the next
// call while the budget lasts, otherwise that the tools stay unavailable.
func (ts *Toolset) restartNote() string {
	ts.mu.Lock()
	restarts := ts.restarts
	ts.mu.Unlock()
	if restarts >= ts.cfg.MaxRestarts {
		if ts.cfg.MaxRestarts == 0 {
			return "restart.max_restarts is 0, so it is not restarted: its tools are unavailable, tell the user"
		}
		return fmt.Sprintf("it was already restarted %d times, the most allowed: its tools are unavailable, tell the user", restarts)
	}
	return "it is restarted on the next call"
}

// crashed drops a dead connection and says so.
func (ts *Toolset) crashed(c *link, tool string, err error) string {
	ts.mu.Lock()
	if ts.conn == c {
		ts.stopKilled = false // a crash, even if a kill came before
	}
	ts.mu.Unlock()
	ts.dropConn(c) // waits for the back-end, so what it left behind is complete
	note := c.CrashNote()
	ts.setLastCrash(err.Error() + note)
	ts.logger.Warn("back-end crashed", "tool", tool, "err", err)
	ts.emit(engine.SafetyEvent{Kind: SafetyCrashed, Tool: tool, Text: err.Error() + note})
	return fmt.Sprintf("the %s back-end crashed during %s: %v%s; %s", ts.name, tool, err, note, ts.restartNote())
}
