package toolsets

import (
	"context"
	"fmt"
	"time"
)

// maxPingTimeout bounds the ping that follows a timed-out call; the ping
// gets as long as the call had, up to this.
const maxPingTimeout = time.Second

// maxHungCalls is how many calls in a row may time out on a back-end that
// still answers pings (its workers all stuck) before it is restarted.
const maxHungCalls = 3

// timedOut follows a non-physical call that timed out: a back-end that no
// longer answers a ping (frozen, deadlocked) or whose last maxHungCalls calls
// all timed out is killed, to be restarted on the next call; otherwise every
// later call would time out too. It returns what to add to the failure ("" when
// the back-end is kept). A back-end with a motion in flight is left to the
// motion's stop path.
func (ts *MCPToolset) timedOut(ctx context.Context, c *conn, tool string) string {
	n := c.hung.Add(1)
	pingTimeout := min(maxPingTimeout, ts.callTimeout(tool))
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pingTimeout)
	err := c.client.Ping(pctx)
	cancel()
	var why string
	switch {
	case err != nil:
		why = fmt.Sprintf("did not answer a ping within %s either", pingTimeout)
	case n >= maxHungCalls:
		why = fmt.Sprintf("answers pings, but its last %d calls all timed out", n)
	default:
		return ""
	}
	if ts.moving(c) {
		return ""
	}
	ts.setLastCrash("unresponsive: the back-end " + why)
	ts.killConn(c)
	ts.logger.Warn("mcp back-end unresponsive: killed", "tool", tool, "why", why)
	ts.emit(SafetyEvent{Kind: SafetyUnresponsive, Tool: tool, Text: "the back-end " + why + "; killed"})
	return fmt.Sprintf("; the %s back-end %s, so it was killed: %s", ts.name, why, ts.restartNote())
}

// callTimeout is the tool's timeout: its contract's, else the toolset's,
// else maxPingTimeout.
func (ts *MCPToolset) callTimeout(tool string) time.Duration {
	if d := ts.tc.Contract(tool).Timeout.D(); d > 0 {
		return d
	}
	if d := ts.cfg.Timeout.D(); d > 0 {
		return d
	}
	return maxPingTimeout
}

// moving tells whether a physical call is in flight on c.
func (ts *MCPToolset) moving(c *conn) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, f := range ts.inflight {
		if f.conn == c {
			return true
		}
	}
	return false
}
