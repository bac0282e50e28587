package toolsets

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
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
	SafetyLateReply          = string(engine.SafetyLateReply) // an abandoned physical call answered
	SafetyStop               = "stop"                         // the stop tool was called
	SafetyKilled             = "backend_killed"               // no reply within stop_grace: back-end killed
	SafetyObservationFailed  = "observation_failed"           // the observation did not decode
	SafetyUncertaintyCleared = "uncertainty_cleared"          // by a well-formed observation
	SafetyCrashed            = "backend_crashed"              // the back-end died (or its connection did)
	SafetyRestarted          = "backend_restarted"            // a crashed back-end was started again
	SafetyRestartFailed      = "backend_restart_failed"
	SafetyStdoutGarbage      = "backend_stdout_garbage" // non-JSON lines on stdout: counted, sampled
	SafetyUnresponsive       = "backend_unresponsive"   // timed out and no ping answer (or calls keep hanging): killed
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
	// Stop is how the motion was stopped (stop and backend_killed events
	// of a stop path): the stop tool or a kill, its outcome and duration.
	Stop *engine.StopCall
}

// safetySink delivers safety events to the process's hook and to the
// session's event stream (as EventSafety), without blocking the caller.
func safetySink(hook func(SafetyEvent), host engine.Host) func(SafetyEvent) {
	return func(ev SafetyEvent) {
		if hook != nil {
			hook(ev)
		}
		if host == nil {
			return
		}
		text := ev.Kind + ":"
		if ev.Tool != "" {
			text += " " + ev.Tool
		}
		if ev.Toolset != "" {
			text += " on the " + ev.Toolset + " back-end"
		}
		if ev.After > 0 {
			text += fmt.Sprintf(" (%s after it started)", ev.After.Round(time.Millisecond))
		}
		if ev.Text != "" {
			text += ": " + ev.Text
		}
		env := ev.Envelope
		host.Emit(engine.Event{Kind: engine.EventSafety, Safety: engine.SafetyKind(ev.Kind), Tool: ev.Tool, Text: text, Result: &env, Stop: ev.Stop})
	}
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
	name := strings.TrimPrefix(c.Path, "toolsets.")
	switch {
	case ts.Stop != nil && len(ts.Tools) > 0 && !slices.Contains(ts.Tools, ts.Stop.Tool):
		c.Errorf(".stop.tool", "the stop tool %q is not in toolsets.%s.tools (%s): add it there", ts.Stop.Tool, name, strings.Join(ts.Tools, ", "))
	case ts.Stop == nil:
		// Only the toolsets section is certain here; contracts may be
		// partial when another section is broken.
		if phys := c.Spec.PhysicalToolsOf(name); len(phys) > 0 {
			c.WarnfAtKey("", "serves physical tools (%s) but declares no stop tool: after a timeout or cancellation the harness can only kill and restart the back-end after stop_grace (%s); declare stop: {tool: ...} (e.g. the back-end's cancel_motion)",
				strings.Join(phys, ", "), ts.StopGrace.D())
		}
	}
	checkCommand(c, ts)
	warnOpenTools(c, ts)
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
