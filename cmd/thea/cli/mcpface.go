package cli

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/mcpserve"
	"github.com/thea-harness/thea/serve"
)

// newMCPSafety is the face's own safety: the lease (lapsing after idle
// without a call; negative: never) and confirmations by elicitation over
// the session's user channel.
func newMCPSafety(idle time.Duration) *mcpserve.Safety {
	return &mcpserve.Safety{Lease: mcpserve.NewLease(max(idle, 0), nil), Confirm: mcpserve.NewConfirmations(nil, nil)}
}

// serveMCP is thea serve --mcp's face: wired into the session's options and
// the server's config before either is built, started once the session is.
type serveMCP struct {
	d       *mcpserve.Decider
	safety  *mcpserve.Safety
	idle    time.Duration
	handler http.Handler // set by start, before the server serves
	face    *mcpserve.Server
}

// wire makes the session's decisions the client's for the tasks it begins,
// its confirmations elicited, and mounts /mcp behind the server's guards.
func (m *serveMCP) wire(wiring *engine.Options, cfg *serve.Config) {
	m.d, m.safety = mcpserve.NewDecider(), newMCPSafety(m.idle)
	wiring.Decider, wiring.WrapUser = m.d, m.safety.Confirm.Over
	cfg.Gate = m.safety.Lease
	cfg.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.handler.ServeHTTP(w, r) })
}

// start builds the face over h.
func (m *serveMCP) start(ctx context.Context, h *engine.Harness, name string) error {
	face, err := mcpserve.New(ctx, h, m.d, mcpserve.Options{Name: "thea", Version: name, Idle: m.idle, Safety: m.safety})
	if err != nil {
		return err
	}
	m.face, m.handler = face, mcpserve.HTTPHandler(face.MCP(), max(m.idle, 0))
	return nil
}

// faceSession closes the MCP face (ending a client's open task, its memory
// written) before the session it drives.
type faceSession struct {
	*engine.Harness
	face *mcpserve.Server
}

func (f faceSession) Close() error { return errors.Join(f.face.Close(), f.Harness.Close()) }
