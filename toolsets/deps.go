package toolsets

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/thea-harness/thea/engine"
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

// Register adds the toolset kinds "builtin" and "mcp" to r.
func Register(r *engine.Registry[engine.ToolsetFactory], deps Deps) error {
	deps = deps.withDefaults()
	if err := r.Register("builtin", NewBuiltinFactory()); err != nil {
		return fmt.Errorf("toolsets: %w", err)
	}
	if err := r.Register("mcp", NewMCPFactory(deps)); err != nil {
		return fmt.Errorf("toolsets: %w", err)
	}
	return nil
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
