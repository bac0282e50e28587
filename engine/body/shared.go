package body

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/thea-harness/thea/engine"
)

// Shared is what every toolset of a process shares, whatever its kind:
// locks, logger and motion state. One Shared for all kinds, so toolsets of
// different kinds driving one body share its motion state. It is passed
// explicitly: there is no package-level state.
type Shared struct {
	// Locks serialises physical calls to one body (or, with
	// safety.uncertainty "toolset", one toolset of it) across all sessions of
	// the process.
	Locks *PhysicalLocks
	// Logger receives lifecycle messages (start, crash, restart).
	Logger *slog.Logger
	// Bodies holds the motion state (in-flight calls, uncertainty) of each
	// body, shared by every toolset built with this Shared.
	Bodies *Bodies
	// OnSafety, when set, receives what happens to interrupted physical
	// calls: a late reply, the stop's outcome, a killed back-end, a failed
	// observation. It is called from the toolset's goroutines and must not
	// block.
	OnSafety func(engine.SafetyEvent)
}

// WithDefaults fills what d leaves out: a logger that discards, and
// fresh locks and bodies. Fill them once and give the result to every kind:
// two kinds given separate defaults would not share a body.
func (d Shared) WithDefaults() Shared {
	if d.Locks == nil {
		d.Locks = NewPhysicalLocks()
	}
	if d.Bodies == nil {
		d.Bodies = NewBodies()
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return d
}

// PhysicalLocks holds one in-process lock per key (a body and scope, see
// Body.Begin), so two sessions sharing hardware never move it at once.
type PhysicalLocks struct {
	mu    sync.Mutex
	locks map[string]chan struct{}
}

// NewPhysicalLocks makes an empty set of locks.
func NewPhysicalLocks() *PhysicalLocks {
	return &PhysicalLocks{locks: map[string]chan struct{}{}}
}

// Lock waits for the key's lock or for ctx to end. The returned function
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
