package toolsets

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Deps are the process-level collaborators every toolset of a process shares.
// They are passed explicitly: there is no package-level state.
type Deps struct {
	// Locks serialises physical calls to one back-end across all sessions of
	// the process; nil gives each Register call its own set.
	Locks *PhysicalLocks
	// Logger receives lifecycle messages (start, crash, restart); nil discards.
	Logger *slog.Logger
}

func (d Deps) withDefaults() Deps {
	if d.Locks == nil {
		d.Locks = NewPhysicalLocks()
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return d
}

// MCPKind is the toolset kind of MCP back-ends (a stdio subprocess or a
// streamable HTTP server); its toolsets share deps.
func MCPKind(deps Deps) engine.ToolsetKind {
	deps = deps.withDefaults()
	return engine.ToolsetKind{
		Name:     "mcp",
		Doc:      "an MCP back-end: a subprocess over stdio (command) or a server over streamable HTTP (url)",
		Validate: validateMCP,
		Provides: func(_ string, ts schema.Toolset) ([]string, bool) {
			return ts.Tools, len(ts.Tools) == 0
		},
		New: func(ctx context.Context, cfg engine.ToolsetConfig) (engine.Toolset, error) {
			ts, err := StartMCP(ctx, cfg, deps)
			if err != nil {
				return nil, err
			}
			return ts, nil
		},
	}
}

func validateMCP(c *schema.Check) {
	ts := c.Section.(schema.Toolset)
	switch {
	case len(ts.Command) == 0 && ts.URL == "":
		c.ErrorfAtKey("", "an mcp toolset needs command (stdio) or url (streamable HTTP)")
	case len(ts.Command) > 0 && ts.URL != "":
		c.ErrorfAtKey(".url", "an mcp toolset has command or url, not both")
	}
	if ts.URL != "" && (ts.Cwd != "" || len(ts.Env) > 0 || len(ts.EnvPassthrough) > 0) {
		c.ErrorfAtKey(".url", "cwd, env and env_passthrough apply only to a command")
	}
	checkCommand(c, ts)
	warnOpenTools(c, ts)
}

// PhysicalLocks holds one lock per back-end identity (command line or URL), so
// two sessions sharing hardware never move it at once.
type PhysicalLocks struct {
	mu    sync.Mutex
	locks map[string]chan struct{}
}

// NewPhysicalLocks makes an empty set of locks.
func NewPhysicalLocks() *PhysicalLocks {
	return &PhysicalLocks{locks: map[string]chan struct{}{}}
}

// Lock waits for the back-end's lock or for ctx to end. The returned function
// releases it.
func (p *PhysicalLocks) Lock(ctx context.Context, key string) (func(), error) {
	p.mu.Lock()
	ch, ok := p.locks[key]
	if !ok {
		// A one-slot channel rather than a mutex so a waiting call can give up
		// when its context ends.
		ch = make(chan struct{}, 1)
		p.locks[key] = ch
	}
	p.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for another physical call to the same back-end: %w", ctx.Err())
	}
}
