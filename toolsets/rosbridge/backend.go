package rosbridge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// Safety events of this kind, beside the body layer's.
const (
	SafetyGarbage      = "rosbridge_garbage"      // a frame the client could not use
	SafetyDisconnected = "rosbridge_disconnected" // the socket dropped
	SafetyReconnected  = "rosbridge_reconnected"  // it is back; goals that may still run were cancelled
	SafetyGivenUp      = "rosbridge_goal_given_up"
	SafetyGoalEnded    = "rosbridge_goal_ended" // a given-up goal's action shows no goal running any more
)

// statusReadTimeout bounds reading the actions' status on a new socket;
// it is the client's own wait, not a spec field.
const statusReadTimeout = 2 * time.Second

// zeroTimeout bounds publishing one zero message.
const zeroTimeout = time.Second

// backend is one rosbridge toolset's way to its robot: one wire.Client for
// the toolset's life, which reconnects by itself. A body-layer connection
// (conn) is a view of it; a "restart" after a dropped socket waits for the
// client's own reconnection, in which every goal that may still run was
// cancelled.
type backend struct {
	name string
	url  string
	plan *plan
	tc   engine.ToolsetConfig
	env  engine.BackendEnv

	mu     sync.Mutex
	client *wire.Client
	up     chan struct{} // closed while the socket is up
	// lastMotion is when the latest physical call ended: an observation's
	// evidence sources must be newer.
	lastMotion time.Time
	// tf is the TF tree, nil unless the observation looks frames up.
	tf *perception.Buffer
	// givenUp are the goals given up by a kill whose end was not yet
	// read from their action's status topic; statusRead the status topics
	// subscribed to (goalend.go).
	givenUp    []givenUp
	statusRead map[string]bool
}

// moved records that a physical call ended now.
func (b *backend) moved() {
	b.mu.Lock()
	b.lastMotion = time.Now()
	b.mu.Unlock()
}

// motionEnded is when the latest physical call ended (zero: none yet).
func (b *backend) motionEnded() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastMotion
}

func newBackend(tc engine.ToolsetConfig, p *plan, env engine.BackendEnv) *backend {
	up := make(chan struct{})
	close(up)
	return &backend{name: tc.Name, url: p.url, plan: p, tc: tc, env: env, up: up, tf: p.newTF(), statusRead: map[string]bool{}}
}

// Profile: liveness is a WebSocket ping; the stop is the action's cancel
// (or, for a publish, its zero message), then the declared stop when the
// cancel did not end the motion within cancel_timeout (stop.go).
//
// Actions and publishes move the robot unless declared not to: the body
// layer runs them as physical whatever the contracts say.
func (b *backend) Profile() engine.BackendProfile {
	timeout := b.cancelTimeout()
	name := "cancel (cancel_action_goal for a goal, the zero message for a publish)"
	if sp := b.plan.stop; sp != nil && !sp.legacy {
		timeout += sp.timeout
		name += ", then the declared stop (" + sp.describe() + ")"
	}
	return engine.BackendProfile{Liveness: "WebSocket ping", Stop: &engine.StopPath{Via: runlog.StopViaCancel, Name: name, Timeout: timeout},
		Physical: b.physical}
}

// physical reports the declared tools that move the robot: an action or a
// publish unless declared physical: false, any tool declared physical: true.
func (b *backend) physical(tool string) bool {
	tp, ok := b.plan.tools[tool]
	return ok && tp.decl.IsPhysical()
}

// cancelTimeout bounds a motion's cancel.
// compile refused a plan without a positive one.
func (b *backend) cancelTimeout() time.Duration { return duration(b.plan.cfg.CancelTimeout) }

// Connect dials rosbridge the first time (subscribing and advertising what
// the spec declares) and afterwards waits for the client's reconnection.
func (b *backend) Connect(ctx context.Context) (engine.BackendConn, error) {
	b.mu.Lock()
	cl, up := b.client, b.up
	b.mu.Unlock()
	if cl != nil {
		select {
		case <-up:
			return newConn(b, cl), nil
		case <-ctx.Done():
			return nil, fmt.Errorf("rosbridge at %s: the socket is not back: %w", b.url, ctx.Err())
		}
	}
	cl, err := wire.Dial(ctx, b.options())
	if err != nil {
		return nil, fmt.Errorf("rosbridge at %s: %w", b.url, err)
	}
	if err := b.declare(ctx, cl); err != nil {
		_ = cl.Close()
		return nil, err
	}
	b.mu.Lock()
	b.client = cl
	b.mu.Unlock()
	return newConn(b, cl), nil
}

func (b *backend) options() wire.Options {
	rc := b.plan.cfg.Reconnect
	o := wire.Options{URL: b.url, Backoff: wire.Backoff{Initial: duration(rc.Initial), Max: duration(rc.Max)},
		OnGarbage:    b.garbage,
		OnDisconnect: b.disconnected,
		OnReconnect:  b.reconnected,
	}
	if env := b.plan.cfg.TokenEnv; env != "" {
		o.Header = http.Header{"Authorization": {"Bearer " + os.Getenv(env)}}
	}
	return o
}

// declare subscribes to every topic the observation and clearance read,
// and advertises every topic a tool publishes to.
func (b *backend) declare(ctx context.Context, cl *wire.Client) error {
	for _, s := range b.plan.subscriptions() {
		s.OnMessage = b.plan.tfReceiver(b.tf, s.Topic)
		if b.isStoppedTopic(s.Topic) {
			s.OnMessage = both(s.OnMessage, b.stoppedMessage)
		}
		if err := cl.Subscribe(ctx, s); err != nil {
			return fmt.Errorf("subscribing to %s: %w", s.Topic, err)
		}
	}
	adverts := b.plan.advertised()
	for topic, typ := range adverts {
		if err := cl.Advertise(ctx, topic, typ); err != nil {
			return fmt.Errorf("advertising %s: %w", topic, err)
		}
	}
	if topic, typ, ok := b.plan.stop.advertisedTopic(); ok && adverts[topic] == "" {
		if err := cl.Advertise(ctx, topic, typ); err != nil {
			return fmt.Errorf("advertising the stop's topic %s: %w", topic, err)
		}
	}
	return nil
}

func (b *backend) garbage(g wire.Garbage) {
	b.env.Emit(engine.SafetyEvent{Kind: SafetyGarbage, Text: "a frame from rosbridge was dropped: " + g.String()})
}

func (b *backend) disconnected(d wire.Disconnect) {
	b.mu.Lock()
	select {
	case <-b.up:
		b.up = make(chan struct{})
	default:
	}
	b.mu.Unlock()
	text := fmt.Sprintf("the socket to %s dropped: %v", b.url, d.Err)
	if n := len(d.Orphans); n > 0 {
		text += fmt.Sprintf("; %d goal(s) may still be running and are cancelled when it is back", n)
	}
	b.env.Logger.Warn("rosbridge socket dropped", "url", b.url, "err", d.Err, "goals", len(d.Orphans))
	b.env.Emit(engine.SafetyEvent{Kind: SafetyDisconnected, Text: text})
}

// reconnected cancels every goal that may still run before any call can
// use the new socket.
func (b *backend) reconnected(r wire.Reconnect) {
	var cancelled, failed []string
	for _, g := range r.Orphans {
		ctx, cancel := context.WithTimeout(context.Background(), b.cancelTimeout())
		if err := g.Cancel(ctx); err != nil {
			failed = append(failed, fmt.Sprintf("%s on %s: %v", g.ID(), g.Action(), err))
		} else {
			cancelled = append(cancelled, g.ID()+" on "+g.Action())
		}
		cancel()
	}
	text := fmt.Sprintf("the socket to %s is back after %s", b.url, r.Downtime.Round(time.Millisecond))
	if len(cancelled) > 0 {
		text += fmt.Sprintf("; cancel_action_goal sent for %v", cancelled)
	}
	if len(failed) > 0 {
		text += fmt.Sprintf("; cancelling failed for %v", failed)
	}
	b.env.Emit(engine.SafetyEvent{Kind: SafetyReconnected, Text: text})
	b.mu.Lock()
	cl := b.client
	b.mu.Unlock()
	if cl != nil {
		b.readStatus(cl, statusReadTimeout)
	}
	// A goal that may still run is given up: the declared stop runs before
	// any call can use the new socket.
	if sp := b.plan.stop; sp != nil && !sp.legacy && len(r.Orphans) > 0 {
		b.mu.Lock()
		cl := b.client
		b.mu.Unlock()
		if cl != nil {
			b.runStop(context.Background(), cl, r.Orphans[0].Action(), fmt.Sprintf("the socket dropped with %d goal(s) in flight", len(r.Orphans)), 0)
		}
	}
	b.mu.Lock()
	select {
	case <-b.up:
	default:
		close(b.up)
	}
	b.mu.Unlock()
}

// drop drops cl's socket for a kill. The toolset counts as down from now
// (not from when the client notices), so the restart that follows waits
// for the new socket instead of using the dropped one. The drop closes
// politely within zeroTimeout, so the stop just sent reaches rosbridge
// before anything sent on the new socket (wire.Client.Drop).
func (b *backend) drop(cl *wire.Client) {
	b.mu.Lock()
	if b.client == cl && cl.Connected() {
		select {
		case <-b.up:
			b.up = make(chan struct{})
		default:
		}
	}
	b.mu.Unlock()
	cl.Drop(zeroTimeout)
}

// Close ends the client.
func (b *backend) Close() error {
	b.mu.Lock()
	cl := b.client
	b.client = nil
	b.mu.Unlock()
	if cl == nil {
		return nil
	}
	if err := cl.Close(); err != nil && !errors.Is(err, wire.ErrClosed) {
		return err
	}
	return nil
}

// transportErr marks the errors of a dropped socket as a dead back-end,
// so the body layer makes the body uncertain.
func transportErr(err error) error {
	if errors.Is(err, wire.ErrConnectionLost) || errors.Is(err, wire.ErrNotConnected) || errors.Is(err, wire.ErrClosed) {
		return engine.BackendCrashed(err)
	}
	return err
}
