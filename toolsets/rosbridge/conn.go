package rosbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// conn is the body layer's connection: a view of the backend's client
// that keeps the handle of each motion in flight, for the stop path.
type conn struct {
	b  *backend
	cl *wire.Client

	mu     sync.Mutex
	moving map[*engine.Motion]*motion
}

// motion is what stops one physical call: its goal, or its publish loop.
type motion struct {
	tool string
	goal *wire.Goal // an action's; nil until sent
	// sent, for an action, is closed once its goal was sent (goal set) or
	// could not be; a stop that comes first waits for it.
	sent chan struct{}
	// stop ends a publish loop early; ended is closed once its zero was
	// published (or tried).
	stop     chan struct{}
	stopOnce sync.Once
	ended    chan struct{}
	// declaredStop is set once the declared stop ran for this motion (the
	// stop path after its cancel); the kill does not run it again.
	declaredStop bool
}

func (m *motion) halt() {
	if m.stop != nil {
		m.stopOnce.Do(func() { close(m.stop) })
	}
}

func newConn(b *backend, cl *wire.Client) *conn {
	return &conn{b: b, cl: cl, moving: map[*engine.Motion]*motion{}}
}

func (c *conn) track(key *engine.Motion, m *motion) func() {
	if key == nil {
		return func() {}
	}
	c.mu.Lock()
	c.moving[key] = m
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.moving, key)
		c.mu.Unlock()
	}
}

func (c *conn) handle(key *engine.Motion) *motion {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.moving[key]
}

// Tools lists the declared tools, then the observation and clearance tools.
func (c *conn) Tools(context.Context) ([]model.ToolDef, error) {
	p := c.b.plan
	var defs []model.ToolDef
	for _, name := range slices.Sorted(maps.Keys(p.tools)) {
		defs = append(defs, p.tools[name].def)
	}
	noArgs := json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	if o := p.cfg.Observation; o != nil {
		defs = append(defs, model.ToolDef{Name: o.Tool, Description: "What the robot senses now: pose, camera images, state and clearance, each from its topic's latest message when the observation completes, with its age in seconds (age_s).", InputSchema: noArgs})
	}
	if cl := p.cfg.Clearance; cl != nil {
		defs = append(defs, model.ToolDef{Name: cl.Tool, Description: "The distance in metres to the nearest obstacle in each clearance sector, from the laser scan " + cl.Topic + ".", InputSchema: noArgs})
	}
	if r := p.cfg.Readings; r != nil {
		defs = append(defs, model.ToolDef{Name: r.Tool, Description: readingsDescription(r), InputSchema: noArgs})
	}
	return defs, nil
}

// Call runs one tool.
func (c *conn) Call(ctx context.Context, req engine.BackendCall) (engine.BackendReply, error) {
	p := c.b.plan
	if o := p.cfg.Observation; o != nil && req.Tool == o.Tool {
		env, err := c.observe(ctx)
		return engine.BackendReply{Envelope: env}, err
	}
	if r := p.cfg.Readings; r != nil && req.Tool == r.Tool {
		env, err := c.readingsTool(ctx)
		return engine.BackendReply{Envelope: env}, err
	}
	if cl := p.cfg.Clearance; cl != nil && req.Tool == cl.Tool {
		env, err := c.clearanceTool(ctx)
		return engine.BackendReply{Envelope: env}, err
	}
	tp, ok := p.tools[req.Tool]
	if !ok {
		return engine.BackendReply{Envelope: runlog.Failure(fmt.Sprintf("the %s toolset has no tool %q", c.b.name, req.Tool))}, nil
	}
	var args map[string]any
	if len(req.Args) > 0 {
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return engine.BackendReply{Envelope: runlog.Failure(fmt.Sprintf("%s: arguments are not a JSON object: %v", req.Tool, err))}, nil
		}
	}
	if args == nil {
		args = map[string]any{}
	}
	if req.Motion != nil {
		// Evidence of this motion's outcome is what arrives after it ends
		// (or is given up).
		defer c.b.moved()
	}
	var env runlog.Envelope
	var err error
	switch {
	case tp.decl.Action != nil:
		env, err = c.callAction(ctx, tp, args, req.Motion)
	case tp.decl.Service != nil:
		env, err = c.callService(ctx, tp, args)
	default:
		env, err = c.callPublish(ctx, tp, args, req.Motion)
	}
	return engine.BackendReply{Envelope: env}, err
}

// Stop cancels the motion's goal (cancel_action_goal) and waits up to
// cancel_timeout for its result; a publish stops and sends its zero
// message. When that did not end the motion and a stop is declared, the
// declared stop runs (stopAfterCancel).
func (c *conn) Stop(ctx context.Context, key *engine.Motion) (runlog.Envelope, error) {
	cctx, cancel := context.WithTimeout(ctx, c.b.cancelTimeout())
	defer cancel()
	env, err := c.cancelMotion(cctx, key)
	if err == nil && env.Success {
		return env, nil
	}
	return c.stopAfterCancel(ctx, key, env, err)
}

// cancelMotion is the cancel: the goal's, or the publish's own stop.
func (c *conn) cancelMotion(ctx context.Context, key *engine.Motion) (runlog.Envelope, error) {
	m := c.handle(key)
	if m == nil {
		return runlog.Envelope{Success: true, Value: map[string]any{"note": "nothing was in flight"}}, nil
	}
	if m.sent != nil { // an action: its goal may be on its way
		select {
		case <-m.sent:
		case <-ctx.Done():
			return runlog.Failure(fmt.Sprintf("the goal of %s was still being sent when the stop timeout ran out", m.tool)), nil
		}
	}
	c.mu.Lock()
	g := m.goal
	c.mu.Unlock()
	if m.sent != nil && g == nil {
		return runlog.Envelope{Success: true, Value: map[string]any{"note": "the goal of " + m.tool + " was never sent"}}, nil
	}
	if g == nil {
		m.halt()
		select {
		case <-m.ended:
			return runlog.Envelope{Success: true, Value: map[string]any{"stopped": m.tool, "zero_sent": true}}, nil
		case <-ctx.Done():
			return runlog.Failure(fmt.Sprintf("the publish of %s did not stop within the stop timeout", m.tool)), nil
		}
	}
	if err := g.Cancel(ctx); err != nil {
		return runlog.Envelope{}, err
	}
	r, err := g.Wait(ctx)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("cancel_action_goal sent for goal %s on %s, but no result came: %v", g.ID(), g.Action(), err)), nil
	}
	return runlog.Envelope{Success: true, Value: map[string]any{"goal": g.ID(), "status": r.Status.String()}}, nil
}

// Alive pings the socket.
func (c *conn) Alive(ctx context.Context) error { return c.cl.Ping(ctx) }

// Kill is rosbridge's kill: there is no process to end, so every motion
// in flight is given up (its goal cancelled once more, a publish stopped),
// the declared stop runs (or, with cmd_vel and no stop, a zero velocity is
// published there), and an event says so; then the socket is dropped, so a
// wedged connection (one that no longer answers, not even a ping) is
// replaced by a new one, on which the goals given up are cancelled again.
// The body layer has already made the body uncertain.
func (c *conn) Kill() {
	defer c.b.drop(c.cl)
	defer c.b.moved()
	c.mu.Lock()
	keys := slices.Collect(maps.Keys(c.moving))
	moving := make([]*motion, len(keys))
	for i, k := range keys {
		moving[i] = c.moving[k]
	}
	c.mu.Unlock()
	for i, m := range moving {
		what := "the publish of " + m.tool + " was stopped"
		c.mu.Lock()
		g := m.goal
		c.mu.Unlock()
		if g != nil {
			ctx, cancel := context.WithTimeout(context.Background(), zeroTimeout)
			err := g.Cancel(ctx)
			cancel()
			what = fmt.Sprintf("goal %s on %s (%s) was given up; the robot may still be moving, until %s shows no goal running", g.ID(), g.Action(), m.tool, statusTopic(g.Action()))
			if err != nil {
				what += fmt.Sprintf(" (a last cancel failed: %v)", err)
			}
			c.b.giveUp(c.cl, keys[i], g)
		}
		m.halt()
		c.mu.Lock()
		ran := m.declaredStop
		c.mu.Unlock()
		stopped := "the declared stop already ran for it"
		if !ran {
			stopped = c.b.stopOnGiveUp(c.cl, m.tool, time.Since(keys[i].Start))
		}
		c.b.env.Emit(engine.SafetyEvent{Kind: SafetyGivenUp, Tool: m.tool, Text: what + "; " + stopped})
	}
}

// Close forgets this view; the client lives on with the backend.
func (c *conn) Close() {}

// CrashNote: a dropped socket leaves nothing behind to read.
func (c *conn) CrashNote() string { return "" }
