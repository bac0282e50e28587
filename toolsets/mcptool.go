package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// mcpTool is one tool of an MCP back-end (unguarded; the toolset guards it).
type mcpTool struct {
	ts          *MCPToolset
	def         model.ToolDef
	physical    bool
	observation bool // the spec's observation tool: a success clears uncertainty
}

func (t *mcpTool) Def() model.ToolDef { return t.def }

// returnsOnCancel: the mcp-go client returns as soon as the context ends.
func (t *mcpTool) returnsOnCancel() {}

func (t *mcpTool) Call(ctx context.Context, args json.RawMessage) engine.Envelope {
	if t.physical {
		return t.callPhysical(ctx, args)
	}
	ts := t.ts
	c, reason := ts.connection(ctx)
	if c == nil {
		return engine.Failure(reason)
	}
	started := time.Now() // an observation is evidence from this moment on
	res, err := c.client.CallTool(ctx, mcpCallRequest(t.def.Name, args))
	if err != nil {
		return t.failed(ctx, c, err)
	}
	c.hung.Store(0)
	if t.observation {
		return ts.observed(t.def.Name, res, started)
	}
	return toEnvelope(t.def.Name, res)
}

// failed turns a non-physical call's error into a failure envelope; a dead
// back-end is dropped, to be restarted on the next call.
func (t *mcpTool) failed(ctx context.Context, c *conn, err error) engine.Envelope {
	ts := t.ts
	switch {
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return engine.Failure(fmt.Sprintf("%s timed out%s", t.def.Name, ts.timedOut(ctx, c, t.def.Name)))
		}
		return engine.Failure(fmt.Sprintf("%s was cancelled", t.def.Name))
	case ts.isClosed():
		// Close ended the connection under the call: not a crash to restart.
		return engine.Failure(fmt.Sprintf("%s did not finish: the %s toolset was closed", t.def.Name, ts.name))
	case isCrash(err):
		return engine.Failure(ts.crashed(c, t.def.Name, err))
	}
	return engine.Failure(fmt.Sprintf("%s failed: %v", t.def.Name, err))
}

// crashed drops a dead connection and says so.
func (ts *MCPToolset) crashed(c *conn, tool string, err error) string {
	ts.dropConn(c) // waits for the process, so its stderr is complete
	note := c.stderrNote()
	ts.setLastCrash(err.Error() + note)
	ts.logger.Warn("mcp back-end crashed", "tool", tool, "err", err)
	ts.emit(SafetyEvent{Kind: SafetyCrashed, Tool: tool, Text: err.Error() + note})
	return fmt.Sprintf("the %s back-end crashed during %s: %v%s; %s", ts.name, tool, err, note, ts.restartNote())
}

// isCrash tells a dead back-end (closed pipe, refused connection) from an error
// the back-end answered with.
func isCrash(err error) bool {
	var uerr *url.Error
	return errors.Is(err, transport.ErrTransportClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.As(err, &uerr)
}

func mcpCallRequest(name string, args json.RawMessage) mcp.CallToolRequest {
	return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}}
}
