package body

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Bodies hands out one Body per embodiment name, so every toolset (and every
// session of the process) driving the same body shares its motion state.
type Bodies struct {
	mu     sync.Mutex
	bodies map[string]*Body
}

// NewBodies makes an empty set.
func NewBodies() *Bodies { return &Bodies{bodies: map[string]*Body{}} }

// For returns the body an embodiment declares, creating it on first use.
// The first spec to name a body sets its cross-process lock.
func (bs *Bodies) For(emb schema.Embodiment, locks *PhysicalLocks, logger *slog.Logger) *Body {
	name := emb.Name
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if b, ok := bs.bodies[name]; ok {
		return b
	}
	b := &Body{name: name, locks: locks, logger: logger, scopes: map[string]*scopeState{},
		cross: newCrossLock(emb)}
	bs.bodies[name] = b
	return b
}

// Body is the motion state of one robot body: which physical call is in
// flight (until it really ends), and whether its state is uncertain. A scope
// is "body" (the default: every physical tool) or "toolset:<name>".
type Body struct {
	name   string
	locks  *PhysicalLocks
	logger *slog.Logger
	cross  *crossLock // nil: no cross-process lock

	mu     sync.Mutex
	scopes map[string]*scopeState
}

type scopeState struct {
	motion    *Motion   // the physical call in flight, nil when none
	uncertain string    // why physical calls are refused; "" when certain
	since     time.Time // when uncertainty began
	lastEnd   time.Time // when the last motion ended
	// unended is a motion killed without its end reported: it refuses
	// physical calls whatever an observation shows (unended.go).
	unended *unended
}

// Motion is one physical call from the moment it holds the body's locks until
// it really ends: its reply arrived or its back-end was killed.
type Motion struct {
	// Motion is what the transport sees of it: its key for the call's
	// handle (engine.BackendCall.Motion, engine.BackendConn.Stop).
	engine.Motion
	body           *Body
	scope          string
	unlock         func()
	abandoned      string // "timed out" | "was cancelled" once the caller gave up
	interruptNote  string // what the harness does about it
	abandonedSince time.Time
	endReported    bool // the robot reported its end during its kill (unended.go)
	once           sync.Once
}

func (b *Body) state(scope string) *scopeState {
	s, ok := b.scopes[scope]
	if !ok {
		s = &scopeState{}
		b.scopes[scope] = s
	}
	return s
}

// Begin takes the scope's motion lock (waiting for another session's call,
// never for an abandoned one), checks uncertainty and takes the cross-process
// lock. It returns the motion, or a reason the model can act on.
func (b *Body) Begin(ctx context.Context, scope, toolset, tool string) (*Motion, string) {
	if why := b.running(scope, tool); why != "" {
		return nil, why
	}
	unlock, err := b.locks.Lock(ctx, "body:"+b.name+"|"+scope)
	if err != nil {
		return nil, fmt.Sprintf("%s did not run: %v", tool, err)
	}
	if why := b.running(scope, tool); why != "" { // abandoned while we waited
		unlock()
		return nil, why
	}
	b.mu.Lock()
	s := b.state(scope)
	why := s.uncertain
	if s.unended != nil {
		why = s.unended.refusal(tool)
	}
	b.mu.Unlock()
	if why != "" {
		unlock()
		return nil, why
	}
	if b.cross != nil {
		if err := b.cross.acquire(ctx); err != nil {
			unlock()
			return nil, fmt.Sprintf("%s did not run: %v", tool, err)
		}
	}
	m := &Motion{Motion: engine.Motion{Toolset: toolset, Tool: tool, Start: time.Now()}, body: b, scope: scope, unlock: unlock}
	b.mu.Lock()
	s.motion = m
	b.mu.Unlock()
	return m, ""
}

// running returns the refusal while an abandoned motion is still in flight.
func (b *Body) running(scope, tool string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.state(scope).motion
	if m == nil || m.abandoned == "" {
		return ""
	}
	return fmt.Sprintf("%s did not run: a motion is still running: %s on the %s back-end started %s ago (%s) and %s without answering; %s. "+
		"Physical calls are refused until it ends or is stopped: wait, then observe",
		tool, m.Tool, m.Toolset, time.Since(m.Start).Round(time.Millisecond), m.Start.Format("15:04:05"), m.abandoned, m.interruptNote)
}

// Abandon records that the caller gave up on m ("timed out", "was
// cancelled"): it stays in flight, holding the locks, until End.
func (m *Motion) Abandon(what, note string) {
	m.body.mu.Lock()
	defer m.body.mu.Unlock()
	m.abandoned, m.interruptNote, m.abandonedSince = what, note, time.Now()
}

// End releases m's locks: its reply arrived or its back-end is gone.
func (m *Motion) End(how string) {
	m.once.Do(func() {
		b := m.body
		b.mu.Lock()
		s := b.state(m.scope)
		if s.motion == m {
			s.motion = nil
		}
		s.lastEnd = time.Now()
		abandoned := m.abandoned
		b.mu.Unlock()
		if b.cross != nil {
			if err := b.cross.release(); err != nil {
				b.logger.Error("body lock", "err", err)
			}
		}
		m.unlock()
		if abandoned != "" {
			b.logger.Info("abandoned motion ended", "tool", m.Tool, "toolset", m.Toolset, "how", how, "after", time.Since(m.Start))
		}
	})
}

// MarkUncertain refuses physical calls in scope until a well-formed
// observation taken after every motion ended, or an operator clear.
func (b *Body) MarkUncertain(scope, reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.state(scope)
	s.uncertain, s.since = reason, time.Now()
}

// Uncertain returns why physical calls in scope are refused, or "".
func (b *Body) Uncertain(scope string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.state(scope)
	if u := s.unended; u != nil {
		return u.reason()
	}
	return s.uncertain
}

// UncertainSince returns when scope became uncertain (zero when certain).
func (b *Body) UncertainSince(scope string) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.state(scope)
	switch {
	case s.unended != nil:
		return s.unended.since
	case s.uncertain == "":
		return time.Time{}
	}
	return s.since
}

// ObservationTaken clears every scope with no motion in flight whose last
// motion ended before the observation started, and none whose end was never
// reported (unended); it reports whether any uncertainty was cleared.
func (b *Body) ObservationTaken(started time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	cleared := false
	for _, s := range b.scopes {
		if s.uncertain != "" && s.motion == nil && s.unended == nil && s.lastEnd.Before(started) {
			s.uncertain = ""
			cleared = true
		}
	}
	return cleared
}

// Clear is the operator's clear: every scope of the body becomes certain,
// a motion whose end was never reported included (the operator vouches that
// the robot stopped). A motion still in flight keeps its lock: clearing
// never allows a second one.
func (b *Body) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.scopes {
		s.uncertain, s.unended = "", nil
	}
}

// InFlight describes the motions in flight, for an operator's status line.
func (b *Body) InFlight() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, s := range b.scopes {
		if m := s.motion; m != nil {
			out = append(out, fmt.Sprintf("%s (%s) for %s", m.Tool, m.Toolset, time.Since(m.Start).Round(time.Millisecond)))
		}
	}
	return out
}

// Moving describes the motions in flight for an operator's view, stable
// while they last (a start time, not a running duration): the tool, its
// back-end, when it started, and whether the caller gave up on it.
func (b *Body) Moving() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, s := range b.scopes {
		if m := s.motion; m != nil {
			d := fmt.Sprintf("%s on the %s back-end since %s", m.Tool, m.Toolset, m.Start.Format(time.TimeOnly))
			if m.abandoned != "" {
				d += " (it " + m.abandoned + " and has not ended)"
			}
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}
