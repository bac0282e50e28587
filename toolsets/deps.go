package toolsets

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
)

// Deps are the process-level collaborators every toolset of a process shares.
// They are passed explicitly: there is no package-level state.
type Deps struct {
	// Locks serialises physical calls to one body (or, with
	// safety.uncertainty "toolset", one toolset of it) across all sessions of
	// the process; nil gives each Register call its own set.
	Locks *PhysicalLocks
	// Logger receives lifecycle messages (start, crash, restart); nil discards.
	Logger *slog.Logger
	// Bodies holds the motion state (in-flight calls, uncertainty) of each
	// body, shared by every toolset built with these Deps; nil gives each
	// Register call its own.
	Bodies *Bodies
	// OnSafety, when set, receives what happens to interrupted physical
	// calls: a late reply, the stop tool's outcome, a killed back-end, a
	// failed observation. It is called from the toolset's goroutines and must
	// not block; the engine can record it in the run log.
	OnSafety func(SafetyEvent)
}

// SafetyEvent kinds.
const (
	SafetyLateReply          = "late_reply"          // an abandoned physical call answered
	SafetyStop               = "stop"                // the stop tool was called
	SafetyKilled             = "backend_killed"      // no reply within stop_grace: back-end killed
	SafetyObservationFailed  = "observation_failed"  // the observation did not decode
	SafetyUncertaintyCleared = "uncertainty_cleared" // by a well-formed observation
)

// SafetyEvent is one event of motion safety, for the run log.
type SafetyEvent struct {
	Kind    string
	Toolset string
	Tool    string // the physical call concerned (or the observation tool)
	// Envelope is the late reply, the stop tool's result or the failed
	// observation (its Reason holds the raw text, bounded).
	Envelope engine.Envelope
	// After is the time since the physical call started.
	After time.Duration
	Text  string
}

func (d Deps) withDefaults() Deps {
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
