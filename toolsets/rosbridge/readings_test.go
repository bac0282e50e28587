package rosbridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// The freshness tests: the fake's light curtain breaks, and topics fall
// silent, at chosen moments. The fake is told through tools of the toolset
// itself (services on the same socket), so a change reaches the toolset's
// latest-message cache before the tool that made it returns.

// setTool is a service tool calling the fake's ServiceSet with request.
func setTool(request string) map[string]any {
	return map[string]any{"description": "test control of the fake", "physical": false,
		"service": map[string]any{"name": rosbridgetest.ServiceSet, "type": "rosbridgetest/srv/Set", "request": request}}
}

// safetySection is a base with the fake's safety sensors: the curtain is a
// state of the observation (not evidence, fresh within 1s) and, with the
// person distance, a safety reading.
func safetySection(t testing.TB, battery map[string]any) map[string]any {
	rb := section(t, `{
  "cmd_vel": "/cmd_vel",
  "tools": {
    "drive": {
      "description": "Drive straight.",
      "args": {"speed": {"type": "number"}, "distance": {"type": "number"}},
      "publish": {"topic": "/cmd_vel", "type": "geometry_msgs/msg/Twist", "rate_hz": 20,
        "message": "{linear: {x: args.speed, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}",
        "duration": "args.distance / args.speed"}
    }
  },
  "observation": {
    "cameras": {"front": {"topic": "/camera/image_raw/compressed"}},
    "pose": {"topic": "/odom"},
    "state": {"curtain_clear": {"topic": "/light_curtain", "type": "std_msgs/msg/Bool", "value": "msg.data", "evidence": false, "max_age": "1s"}}
  },
  "readings": {"sources": {
    "curtain_clear": {"topic": "/light_curtain", "type": "std_msgs/msg/Bool", "max_age": "1s"},
    "person_distance": {"topic": "/person_distance", "type": "std_msgs/msg/Float32", "max_age": "1s"}
  }}
}`)
	tools := rb["tools"].(map[string]any)
	tools["hold_odom"] = setTool("{hold: ['/odom']}")
	tools["release_odom"] = setTool("{release: ['/odom']}")
	tools["hold_battery"] = setTool("{hold: ['/battery_state']}")
	tools["hold_curtain"] = setTool("{hold: ['/light_curtain']}")
	tools["break_curtain"] = setTool("{curtain_clear: false}")
	tools["person_unseen"] = setTool("{person_distance: nil}")
	if battery != nil {
		rb["observation"].(map[string]any)["state"].(map[string]any)["battery"] = battery
	}
	return rb
}

// guard is a policy over the robot's tools whose pre-hook blocks a physical
// call unless the curtain is clear and nobody is within 0.5 m, read fresh
// through safety.readings.
type guard struct {
	p *policies.Policy
	r *robot
}

func newGuard(t testing.TB, r *robot) *guard {
	t.Helper()
	return &guard{p: newGuardWith(t, caller{t: t, r: r}), r: r}
}

func newGuardWith(t testing.TB, c caller) *policies.Policy {
	t.Helper()
	s := &schema.Spec{
		Tools:  map[string]schema.ToolContract{"drive": {Physical: true}},
		Safety: schema.Safety{Readings: &schema.SafetyReadings{Tool: "readings", Values: map[string]string{"curtain_clear": "bool", "person_distance": "number"}}},
		Hooks: schema.Hooks{Pre: []schema.PreHook{{Name: "safety_readings", When: "tool.physical", Action: "block",
			Rule: "!readings.curtain_clear || readings.person_distance < 0.5", Reason: "the light curtain is broken or a person is near"}}},
	}
	p, err := policies.NewWithActions(engine.PolicyEnv{Spec: s, Tools: c}, policies.NewActions())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pre runs the pre-chain of a drive, as the engine does after the model's
// decision and immediately before the call.
func (g *guard) pre(ctx context.Context) engine.PreResult {
	return g.p.Pre(ctx, &engine.CallContext{
		Call: &engine.Call{ID: "c", Tool: "drive", Args: map[string]any{"speed": 0.1, "distance": 0.01}},
		Tool: &engine.RegisteredTool{Toolset: "robot", Contract: schema.ToolContract{Physical: true}},
	})
}

// caller is the robot's tools as the policy calls them; after, when set,
// sees every answer.
type caller struct {
	t     testing.TB
	r     *robot
	after func(runlog.Envelope)
}

func (c caller) Read(ctx context.Context, _ engine.Purpose, name string, args map[string]any) runlog.Envelope {
	raw, err := json.Marshal(args)
	if err != nil {
		return runlog.Failure(err.Error())
	}
	env := c.r.callCtx(ctx, c.t, name, string(raw))
	if c.after != nil {
		c.after(env)
	}
	return env
}

// TestCurtainBreaksWhileObserving: an observation waiting for the pose (held
// silent after a motion) sees the curtain break meanwhile: it ends with the
// latest message of each source, so it says broken, and the next physical
// call is blocked.
func TestCurtainBreaksWhileObserving(t *testing.T) {
	p := fake(t)
	r := startSection(t, p.URL, safetySection(t, nil))
	g := newGuard(t, r)
	wantSuccess(t, r.call(t, "observe", `{}`))
	if res := g.pre(t.Context()); !res.Allowed {
		t.Fatalf("blocked with the curtain clear: %s", res.Reason)
	}
	wantSuccess(t, r.call(t, "hold_odom", `{}`))
	wantSuccess(t, r.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`))

	// The observation cannot end before a pose newer than the drive, which
	// the fake holds back until the curtain has broken.
	done := make(chan runlog.Envelope, 1)
	go func() { done <- r.call(t, "observe", `{}`) }()
	// The old observation took the first curtain message after it began:
	// let one or two go by first.
	n0 := state(t, p.URL).Published[rosbridgetest.TopicCurtain]
	testtime.Wait(t, "two curtain messages during the observation", func() bool {
		return state(t, p.URL).Published[rosbridgetest.TopicCurtain] >= n0+2
	})
	wantSuccess(t, r.call(t, "break_curtain", `{}`))
	wantSuccess(t, r.call(t, "release_odom", `{}`))
	var obs runlog.Envelope
	select {
	case obs = <-done:
	case <-time.After(testtime.Scale(20 * time.Second)):
		t.Fatal("the observation never ended")
	}
	wantSuccess(t, obs)
	st, _ := obs.Value["state"].(map[string]any)
	if st["curtain_clear"] != false {
		t.Fatalf("the observation says the curtain is %v after it broke: %v", st["curtain_clear"], obs.Value)
	}
	ages, _ := obs.Value["age_s"].(map[string]any)
	for _, src := range []string{"pose", "cameras.front", "state.curtain_clear"} {
		if _, ok := ages[src].(float64); !ok {
			t.Errorf("no age for %s: %v", src, ages)
		}
	}
	res := g.pre(t.Context())
	if res.Allowed || !strings.Contains(res.Reason, "light curtain is broken") {
		t.Fatalf("the drive after the curtain broke: allowed %v, %q", res.Allowed, res.Reason)
	}
}

// TestCurtainBreaksAfterTheDecision: the observation the model decided on
// said clear; the curtain breaks before the call, and the reading the hook
// takes immediately before the call blocks it.
func TestCurtainBreaksAfterTheDecision(t *testing.T) {
	p := fake(t)
	r := startSection(t, p.URL, safetySection(t, nil))
	g := newGuard(t, r)
	obs := r.call(t, "observe", `{}`)
	wantSuccess(t, obs)
	if st, _ := obs.Value["state"].(map[string]any); st["curtain_clear"] != true {
		t.Fatalf("the curtain starts broken: %v", obs.Value)
	}
	// The model decides on obs; then the curtain breaks.
	wantSuccess(t, r.call(t, "break_curtain", `{}`))
	res := g.pre(t.Context())
	if res.Allowed || !strings.Contains(res.Reason, "light curtain is broken") {
		t.Fatalf("allowed %v, %q", res.Allowed, res.Reason)
	}
}

// TestMissingOrStaleReadingBlocks: a reading whose topic fell silent (stale
// past its max_age) or gave null (nobody seen: NaN) blocks, with the reason
// naming the topic.
func TestMissingOrStaleReadingBlocks(t *testing.T) {
	p := fake(t)
	r := startSection(t, p.URL, safetySection(t, nil))
	g := newGuard(t, r)
	if res := g.pre(t.Context()); !res.Allowed {
		t.Fatalf("blocked with fresh readings: %s", res.Reason)
	}
	wantSuccess(t, r.call(t, "person_unseen", `{}`))
	res := g.pre(t.Context())
	if res.Allowed || !strings.Contains(res.Reason, "/person_distance gave no value") {
		t.Fatalf("a null reading: allowed %v, %q", res.Allowed, res.Reason)
	}

	p2 := fake(t)
	r2 := startSection(t, p2.URL, safetySection(t, nil))
	g2 := newGuard(t, r2)
	wantSuccess(t, r2.call(t, "hold_curtain", `{}`))
	// The last curtain message ages past its max_age (1s) in its own time.
	testtime.Wait(t, "the silent curtain blocks", func() bool {
		res = g2.pre(t.Context())
		return !res.Allowed
	})
	if !strings.Contains(res.Reason, "/light_curtain") || !strings.Contains(res.Reason, "max_age 1s") {
		t.Fatalf("a stale reading: %q", res.Reason)
	}
}

// TestSlowTopicDoesNotPaceTheTurn: a battery declared not evidence, with its
// own max_age, is read from its latest message: after a motion the
// observation waits for the pose and camera only, so it ends although the
// battery is silent. Declared as evidence (the default), the same silence
// fails the observation, naming the source.
func TestSlowTopicDoesNotPaceTheTurn(t *testing.T) {
	battery := map[string]any{"topic": "/battery_state", "type": "sensor_msgs/msg/BatteryState", "value": "msg.percentage",
		"evidence": false, "max_age": testtime.Scale(60 * time.Second).String()}
	p := fake(t)
	r := startSection(t, p.URL, safetySection(t, battery))
	wantSuccess(t, r.call(t, "observe", `{}`)) // the first battery message
	wantSuccess(t, r.call(t, "hold_battery", `{}`))
	n0 := state(t, p.URL).Published[rosbridgetest.TopicBattery]
	wantSuccess(t, r.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`))
	obs := r.call(t, "observe", `{}`)
	wantSuccess(t, obs)
	if n := state(t, p.URL).Published[rosbridgetest.TopicBattery]; n != n0 {
		t.Fatalf("%d battery messages were sent while it was held", n-n0)
	}
	if st, _ := obs.Value["state"].(map[string]any); st["battery"] == nil {
		t.Fatalf("no battery in the observation: %v", obs.Value)
	}
	ages, _ := obs.Value["age_s"].(map[string]any)
	if b, p := ages["state.battery"].(float64), ages["pose"].(float64); b <= p {
		t.Fatalf("the battery (%vs) is not older than the pose (%vs): it was waited for", b, p)
	}

	// max_age covers the battery's first message (sent 60 ms after the
	// subscription), and the silence that follows the hold is waited out
	// to it: kept short, as the failure waits for all of it.
	evidence := map[string]any{"topic": "/battery_state", "type": "sensor_msgs/msg/BatteryState", "value": "msg.percentage", "max_age": "3s"}
	p2 := fake(t)
	r2 := startSection(t, p2.URL, safetySection(t, evidence))
	wantSuccess(t, r2.call(t, "observe", `{}`))
	wantSuccess(t, r2.call(t, "hold_battery", `{}`))
	wantSuccess(t, r2.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`))
	wantFailure(t, r2.call(t, "observe", `{}`), "state.battery", "/battery_state", "since the last motion")
}
