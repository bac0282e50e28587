package toolsets

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxCheckTimeout bounds the liveness check that follows a timed-out call;
// the check gets as long as the call had, up to this.
const maxCheckTimeout = time.Second

// maxHungCalls is how many calls in a row may time out on a back-end that
// still answers liveness checks (its workers all stuck) before it is restarted.
const maxHungCalls = 3

// timedOut follows a non-physical call that timed out: a back-end that no
// longer answers a liveness check (frozen, deadlocked) or whose last maxHungCalls calls
// all timed out is killed, to be restarted on the next call; otherwise every
// later call would time out too. It returns what to add to the failure ("" when
// the back-end is kept). A back-end with a motion in flight is left to the
// motion's stop path.
func (ts *MCPToolset) timedOut(ctx context.Context, c *conn, tool string) string {
	n := c.hung.Add(1)
	checkTimeout := min(maxCheckTimeout, ts.callTimeout(tool))
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), checkTimeout)
	// tools/list rather than ping: ping is gone from newer protocol
	// versions (mcp-go then answers it without asking the back-end), and a
	// listing, like a ping, is answered by the server's own loop, not by the
	// worker a hung call holds.
	_, err := c.client.ListTools(pctx, mcp.ListToolsRequest{})
	cancel()
	var why string
	switch {
	case err != nil:
		why = fmt.Sprintf("did not answer a liveness check (tools/list) within %s either", checkTimeout)
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
	ts.logger.Warn("mcp back-end unresponsive: killed", "tool", tool, "why", why)
	ts.emit(SafetyEvent{Kind: SafetyUnresponsive, Tool: tool, Text: "the back-end " + why + "; killed"})
	return fmt.Sprintf("; the %s back-end %s, so it was killed: %s", ts.name, why, ts.restartNote())
}

// callTimeout is the tool's timeout: its contract's, else the toolset's,
// else maxCheckTimeout.
func (ts *MCPToolset) callTimeout(tool string) time.Duration {
	if d := ts.tc.Contract(tool).Timeout.D(); d > 0 {
		return d
	}
	if d := ts.cfg.Timeout.D(); d > 0 {
		return d
	}
	return maxCheckTimeout
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
