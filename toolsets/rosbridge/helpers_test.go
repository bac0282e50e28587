package rosbridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

func TestMain(m *testing.M) {
	if code, ok := rosbridgetest.ChildMain(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// turtlebot is the rosbridge section of a TurtleBot with Nav2, as the
// example spec declares it.
const turtlebot = `{
  "cmd_vel": "/cmd_vel",
  "reconnect": {"initial": "20ms", "max": "200ms"},
  "tools": {
    "navigate_to": {
      "description": "Drive to a point of the map with Nav2.",
      "args": {"x": {"type": "number"}, "y": {"type": "number"}},
      "action": {"name": "/navigate_to_pose", "type": "nav2_msgs/action/NavigateToPose",
        "goal": "{pose: {header: {frame_id: 'map'}, pose: {position: {x: args.x, y: args.y, z: 0.0}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}}, behavior_tree: ''}"}
    },
    "dock": {
      "description": "Dock on the charger.",
      "service": {"name": "/dock", "type": "std_srvs/srv/Trigger", "success": "response.success", "reason": "response.message"}
    },
    "drive": {
      "description": "Drive straight.",
      "args": {"speed": {"type": "number", "maximum": 0.5}, "distance": {"type": "number"}},
      "publish": {"topic": "/cmd_vel", "type": "geometry_msgs/msg/Twist", "rate_hz": 20,
        "message": "{linear: {x: args.speed, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}",
        "duration": "args.distance / args.speed"}
    }
  },
  "observation": {
    "cameras": {"front": {"topic": "/camera/image_raw/compressed"}},
    "pose": {"topic": "/odom"},
    "state": {"battery": {"topic": "/battery_state", "type": "sensor_msgs/msg/BatteryState", "value": "msg.percentage"}}
  },
  "clearance": {"topic": "/scan"}
}`

func section(t testing.TB, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fake starts the fake rosbridge in a real subprocess (this test binary).
func fake(t testing.TB, args ...string) *rosbridgetest.Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(20*time.Second))
	defer cancel()
	p, err := rosbridgetest.StartProcess(ctx, os.Args[0], args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop(testtime.Scale(5 * time.Second)) })
	return p
}

// state reads the fake's State through its state service.
func state(t testing.TB, url string) rosbridgetest.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	raw, err := cl.CallService(ctx, rosbridgetest.ServiceState, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st rosbridgetest.State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

type events struct {
	mu  sync.Mutex
	evs []engine.SafetyEvent
}

func (e *events) add(ev engine.SafetyEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

func (e *events) find(kind string) (engine.SafetyEvent, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.evs {
		if ev.Kind == kind {
			return ev, true
		}
	}
	return engine.SafetyEvent{}, false
}

func (e *events) has(kind string) func() bool {
	return func() bool { _, ok := e.find(kind); return ok }
}

// robot is a started rosbridge toolset with its tools guarded.
type robot struct {
	*body.Toolset
	g   *engine.Guarded
	evs *events
}

type opts struct {
	timeout   time.Duration // navigate_to's contract timeout
	stopGrace time.Duration
	// stopTimeout bounds the cancel (0: the default).
	stopTimeout time.Duration
	// tokenEnv is rosbridge.token_env.
	tokenEnv string
}

func start(t testing.TB, url string, o opts) *robot {
	t.Helper()
	r, err := startErr(t, url, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func startErr(t testing.TB, url string, o opts) (*robot, error) {
	t.Helper()
	return startWith(t, url, section(t, turtlebot), o)
}

// startSection starts a toolset of the rosbridge block rb.
func startSection(t testing.TB, url string, rb map[string]any) *robot {
	t.Helper()
	r, err := startWith(t, url, rb, opts{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// loadErr is the error of starting a toolset of rb: its section's
// problems, found before any connection.
func loadErr(t testing.TB, rb map[string]any) error {
	t.Helper()
	_, err := startWith(t, "ws://127.0.0.1:1", rb, opts{})
	if err == nil {
		t.Fatal("the toolset started")
	}
	return err
}

func startWith(t testing.TB, url string, rb map[string]any, o opts) (*robot, error) {
	t.Helper()
	evs := &events{}
	if o.stopTimeout > 0 {
		rb["cancel_timeout"] = o.stopTimeout.String()
	}
	if o.tokenEnv != "" {
		rb["token_env"] = o.tokenEnv
	}
	// The block decoded as Load decodes it: its schema problems end here,
	// before any connection, as they end a spec's load.
	cfg, err := rosbridge.DecodeConfig(rb)
	if err != nil {
		return nil, fmt.Errorf("rosbridge toolset %q: %w", "robot", err)
	}
	ts := schema.Toolset{Kind: "rosbridge", Config: rosbridge.Section{URL: url, Rosbridge: cfg},
		Timeout: schema.Duration(testtime.Scale(20 * time.Second)), StartTimeout: schema.Duration(testtime.Scale(10 * time.Second)),
		Restart:   schema.Restart{MaxRestarts: 5, Backoff: schema.Duration(time.Millisecond)},
		StopGrace: schema.Duration(o.stopGrace), MaxResultBytes: 1 << 20}
	tc := engine.ToolsetConfig{Name: "robot", Section: ts, Observation: "robot.observe",
		Body: schema.Embodiment{Name: "tb-" + t.Name(), Lock: schema.BodyLock{Dir: t.TempDir()}, Cameras: []schema.Camera{{Name: "front", Width: 32, Height: 24}}},
		Contract: func(tool string) schema.ToolContract {
			if (tool == "navigate_to" || tool == "pick") && o.timeout > 0 {
				return schema.ToolContract{Timeout: schema.Duration(o.timeout)}
			}
			return schema.ToolContract{}
		}}
	g, err := engine.StartToolset(t.Context(), rosbridge.Kind(), tc, body.NewLayer(body.Shared{OnSafety: evs.add}), nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = g.Close() })
	return &robot{Toolset: g.Toolset.(*body.Toolset), g: g, evs: evs}, nil
}

func (r *robot) call(t testing.TB, name, args string) runlog.Envelope {
	t.Helper()
	return r.callCtx(t.Context(), t, name, args)
}

func (r *robot) callCtx(ctx context.Context, t testing.TB, name, args string) runlog.Envelope {
	t.Helper()
	tools, err := r.g.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Def().Name == name {
			return tl.Call(callgate.Through(ctx), json.RawMessage(args))
		}
	}
	t.Fatalf("no tool %q", name)
	return runlog.Envelope{}
}

func wantSuccess(t testing.TB, env runlog.Envelope) {
	t.Helper()
	if !env.Success {
		t.Fatalf("want success, got failure %q", env.Reason)
	}
}

func wantFailure(t testing.TB, env runlog.Envelope, contains ...string) {
	t.Helper()
	if env.Success {
		t.Fatalf("want failure, got success %v", env.Value)
	}
	for _, c := range contains {
		if !strings.Contains(env.Reason, c) {
			t.Fatalf("reason %q does not contain %q", env.Reason, c)
		}
	}
}
