package mcpserve

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Safety is what the face adds for the server's own safety (Options.Safety):
// the controlling-client lease for physical tools and tasks, and
// confirmations asked of the calling client by elicitation.
type Safety struct {
	// Lease gives the body to one client at a time; share it with serve's
	// task API (serve.Config.Gate) under thea serve --mcp.
	Lease *Lease
	// Confirm is the session's user channel (engine.Options.User); the face
	// attaches itself so a confirm hook asks the client whose call waits.
	Confirm *Confirmations
}

// serverOptions: elicitation, the lease released on disconnect, and
// begin_task/end_task taking and giving back the lease.
func (sf *Safety) serverOptions(s *Server) []server.ServerOption {
	if sf == nil || sf.Lease == nil {
		return []server.ServerOption{server.WithElicitation()}
	}
	return append(ServerOptions(sf.Lease), server.WithToolHandlerMiddleware(sf.taskLease))
}

// attach points the confirmations at s and checks physical calls against
// the lease before they enter the session (unless the caller set its own
// BeforeCall).
func (sf *Safety) attach(s *Server) {
	if sf == nil {
		return
	}
	if sf.Confirm != nil {
		sf.Confirm.mu.Lock()
		sf.Confirm.srv, sf.Confirm.from = s.mcp, &s.callCtx
		sf.Confirm.mu.Unlock()
	}
	if sf.Lease != nil && s.opts.BeforeCall == nil {
		s.opts.BeforeCall = sf.beforeCall
	}
}

// beforeCall takes the lease for a physical call. The lease is held until
// end_task, a disconnect or idleness, not per call, so a client is never
// cut off between two motions of its task; the call's own end only
// restarts the idle clock.
func (sf *Safety) beforeCall(ctx context.Context, c CallInfo) error {
	if !c.Physical {
		return nil
	}
	done, err := sf.Lease.Take(ctx)
	if err != nil {
		return err
	}
	done()
	return nil
}

// taskLease: begin_task takes the body (a task moves it); end_task gives
// it back once the task has ended.
func (sf *Safety) taskLease(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		switch req.Params.Name {
		case ToolBeginTask:
			done, err := sf.Lease.Take(ctx)
			if err != nil {
				return refusal(ToolBeginTask, err.Error()), nil
			}
			defer done()
		case ToolEndTask:
			if h, ok := sf.Lease.Holder(); ok && h.Session != sessionID(ctx) {
				return refusal(ToolEndTask, fmt.Sprintf("the task is not yours to end: the body is held by %s", h)), nil
			}
			res, err := next(ctx, req)
			sf.Lease.Release(sessionID(ctx))
			return res, err
		}
		return next(ctx, req)
	}
}
