package body

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// Toolset is one toolset of a transport kind: its back-end's tools, each
// call through the body layer. It restarts a crashed back-end on the next
// call (with backoff, a bounded number of times) and tracks whether the
// robot's state is uncertain after a physical call timed out or crashed.
type Toolset struct {
	name    string
	cfg     Config
	tc      engine.ToolsetConfig
	backend engine.Backend
	profile engine.BackendProfile
	logger  *slog.Logger
	tools   []engine.Tool
	// body is the motion state shared with every toolset of the body; scope
	// is this toolset's part of it ("body" or "toolset:<name>").
	body     *Body
	scope    string
	onSafety func(engine.SafetyEvent)

	// startSem serialises restarts (and their backoff) without holding mu,
	// so state queries and an operator's clear never wait for a restart; a
	// channel, so a caller waits for it only as long as its context allows.
	startSem  chan struct{}
	mu        sync.Mutex
	conn      *link // nil after a crash, until the next call restarts it
	restarts  int
	backoff   time.Duration
	lastCrash string
	// stopKilled: the connection is down because the stop path killed it,
	// not because it crashed (see stopKill).
	stopKilled bool
	closed     bool
	// inflight are this toolset's physical calls not yet ended, with the
	// connection each runs on (Close stops them).
	inflight map[*Motion]*flight
}

// link is one connection with the body layer's count of the calls in a row
// that timed out on it (see timedOut).
type link struct {
	engine.BackendConn
	hung atomic.Int32
	// killed: the stop path killed this connection on purpose.
	killed atomic.Bool
}

var _ engine.Toolset = (*Toolset)(nil)

// start builds one toolset: open makes its back-end (nothing started yet),
// which is then connected and its tools listed. deps has its defaults.
func start(ctx context.Context, tc engine.ToolsetConfig, deps Shared, open engine.Transport) (*Toolset, error) {
	cfg, err := configOf(tc.Name, tc.Section)
	if err != nil {
		return nil, err
	}
	if tc.Contract == nil {
		tc.Contract = func(string) schema.ToolContract { return schema.ToolContract{} }
	}
	ts := &Toolset{
		name: tc.Name, cfg: cfg, tc: tc,
		logger:   deps.Logger.With("toolset", tc.Name),
		backoff:  cfg.Backoff,
		body:     deps.Bodies.For(tc.Body, deps.Locks, deps.Logger),
		scope:    "body",
		onSafety: safetySink(deps.OnSafety, tc.Stream),
		inflight: map[*Motion]*flight{},
		startSem: make(chan struct{}, 1),
	}
	if tc.Uncertainty == "toolset" {
		ts.scope = "toolset:" + tc.Name
	}
	b, err := open(tc, engine.BackendEnv{Logger: ts.logger, Emit: ts.emit, MotionEnded: ts.motionEnded})
	if err != nil {
		return nil, err
	}
	ts.backend, ts.profile = b, b.Profile()
	c, err := ts.connect(ctx)
	if err != nil {
		_ = b.Close()
		return nil, err
	}
	ts.conn = c
	if err := ts.listTools(ctx, c); err != nil {
		c.Close()
		_ = b.Close()
		return nil, err
	}
	ts.logger.Debug("back-end started", "tools", len(ts.tools))
	return ts, nil
}

// connect starts the back-end within start_timeout.
func (ts *Toolset) connect(ctx context.Context) (*link, error) {
	sctx, cancel := context.WithTimeout(ctx, ts.cfg.StartTimeout)
	defer cancel()
	c, err := ts.backend.Connect(sctx)
	if err != nil {
		return nil, err
	}
	return &link{BackendConn: c}, nil
}

// listTools offers every tool the back-end lists; the engine keeps the
// ones the spec allows and guards them.
func (ts *Toolset) listTools(ctx context.Context, c *link) error {
	lctx, cancel := context.WithTimeout(ctx, ts.cfg.StartTimeout)
	defer cancel()
	defs, err := c.Tools(lctx)
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	for _, d := range defs {
		// The one decision of what this tool is (engine.EffectiveContract):
		// the session registers the same value (tool.Contract).
		decl := engine.Declared{Physical: ts.profile.Physical != nil && ts.profile.Physical(d.Name)}
		if ts.profile.Stop != nil {
			decl.Stop = ts.profile.Stop.Name
		}
		ts.tools = append(ts.tools, &tool{ts: ts, def: d, declared: decl,
			contract:    engine.EffectiveContract(ts.tc.Contract(d.Name), decl),
			observation: schema.RefersTo(ts.tc.Observation, ts.name, d.Name)})
	}
	return nil
}

// Name is the toolset's name in the spec.
func (ts *Toolset) Name() string { return ts.name }

// Tools returns the tools listed at start.
func (ts *Toolset) Tools(context.Context) ([]engine.Tool, error) { return ts.tools, nil }

// Close ends the back-end; it is idempotent. With a physical call in
// flight it first calls the kind's stop (bounded by its timeout), and the
// body is left uncertain.
func (ts *Toolset) Close() error {
	ts.mu.Lock()
	c := ts.conn
	wasClosed := ts.closed
	ts.conn, ts.closed = nil, true
	flights := make([]*flight, 0, len(ts.inflight))
	for _, f := range ts.inflight {
		flights = append(flights, f)
	}
	ts.mu.Unlock()
	if !wasClosed {
		ts.closeFlights(flights)
	}
	if c != nil {
		c.Close()
	}
	return ts.backend.Close()
}

func (ts *Toolset) isClosed() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.closed
}

// ClearUncertain is the operator's clear: it clears the whole body's
// uncertainty (every scope). A motion still in flight keeps its lock.
func (ts *Toolset) ClearUncertain() { ts.body.Clear() }

// Uncertain returns why this toolset's physical calls are refused, or "".
func (ts *Toolset) Uncertain() string { return ts.body.Uncertain(ts.scope) }

// UncertainSince returns when this toolset's physical calls began to be
// refused (zero when certain), for an operator's view.
func (ts *Toolset) UncertainSince() time.Time { return ts.body.UncertainSince(ts.scope) }

// InFlight describes the body's motions in flight (every scope: an
// operator's clear is the whole body's), for an operator's view.
func (ts *Toolset) InFlight() []string { return ts.body.Moving() }

// Body returns the body whose motion state this toolset shares.
func (ts *Toolset) Body() *Body { return ts.body }

// Restarts returns how many times the back-end was restarted.
func (ts *Toolset) Restarts() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.restarts
}

func (ts *Toolset) markUncertain(tool, what string) {
	if ts.cfg.OnUncertain == "continue" {
		return
	}
	obs := ts.tc.Observation
	if obs == "" {
		obs = "the observation tool"
	}
	scope := "any part of the body"
	if ts.scope != "body" {
		scope = "the " + ts.name + " toolset"
	}
	ts.body.MarkUncertain(ts.scope, fmt.Sprintf("the robot's state is uncertain since %s %s on the %s back-end at %s: physical calls on %s are refused until a well-formed observation (%s) taken after that motion ended, or an operator clears it",
		tool, what, ts.name, time.Now().Format(time.TimeOnly), scope, obs))
}

func (ts *Toolset) emit(ev engine.SafetyEvent) {
	ev.Toolset = ts.name
	if ts.onSafety != nil {
		ts.onSafety(ev)
	}
}

// tool is one tool of the back-end; a physical one goes through the
// motion lock and the stop path.
type tool struct {
	ts  *Toolset
	def model.ToolDef
	// contract is the tool's effective contract (the spec's merged with
	// declared): its Physical routes each call through the motion rules.
	contract    schema.ToolContract
	declared    engine.Declared
	observation bool // the spec's observation tool: a success clears uncertainty
}

var _ engine.ContractedTool = (*tool)(nil)

func (t *tool) Def() model.ToolDef { return t.def }

// Contract is the effective contract the tool runs with.
func (t *tool) Contract() schema.ToolContract { return t.contract }

// Declared is what the transport declares of the tool.
func (t *tool) Declared() engine.Declared { return t.declared }

// ReturnsOnCancel: a call returns as soon as its context ends (a physical
// one leaves its motion to the stop path).
func (t *tool) ReturnsOnCancel() {}
