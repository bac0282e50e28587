package rosbridge_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// arm is the rosbridge section of the fake arm: its pick skill, the light
// curtain as its observation, and the dashboard stop as its declared stop.
const arm = `{
  "cancel_timeout": "100ms",
  "reconnect": {"initial": "20ms", "max": "200ms"},
  "tools": {
    "pick": {
      "description": "Pick an object from the table.",
      "args": {"object": {"type": "string"}},
      "action": {"name": "/pick", "type": "arm_skills/action/Pick", "goal": "{object: args.object}"}
    }
  },
  "observation": {
    "state": {"curtain_broken": {"topic": "/safety/light_curtain", "type": "std_msgs/msg/Bool", "value": "msg.data"}}
  },
  "stop": {"timeout": "2s", "service": {"name": "/dashboard_client/stop", "type": "std_srvs/srv/Trigger"}}
}`

// armWithout is the arm's section without its declared stop.
func armWithout(t *testing.T) map[string]any {
	rb := section(t, arm)
	delete(rb, "stop")
	return rb
}

// TestDeclaredStopEndsHungGoal: the pick hangs and ignores its cancel; when
// the caller gives it up (its timeout, or a cancel: Ctrl-C and a served
// interrupt end the call's context the same way), the declared stop (the
// dashboard stop) runs after cancel_timeout, halts the arm, and the goal's
// late result ends the motion within stop_grace: no kill. The stop's outcome
// is on the record, and the body stays uncertain until a fresh observation.
func TestDeclaredStopEndsHungGoal(t *testing.T) {
	for _, how := range []string{"timed out", "was cancelled"} {
		t.Run(strings.ReplaceAll(how, " ", "_"), func(t *testing.T) {
			p := fake(t, "-robot", "arm", "-hang-arm")
			o := opts{stopGrace: testtime.Scale(3 * time.Second)}
			if how == "timed out" {
				o.timeout = testtime.Scale(300 * time.Millisecond)
			}
			r, err := startWith(t, p.URL, section(t, arm), o)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan runlog.Envelope, 1)
			go func() { done <- r.callCtx(ctx, t, "pick", `{"object": "mug"}`) }()
			if how == "was cancelled" {
				testtime.Wait(t, "the arm moving", func() bool { return state(t, p.URL).Arm.Moving })
				cancel()
			}
			wantFailure(t, <-done, how)
			testtime.Wait(t, "the declared stop on the record", r.evs.has(rosbridge.SafetyDeclaredStop))
			ev, _ := r.evs.find(rosbridge.SafetyDeclaredStop)
			if ev.Stop == nil || !ev.Stop.OK || ev.Stop.Via != runlog.StopViaDeclared || ev.Stop.Tool != "service /dashboard_client/stop" {
				t.Fatalf("declared stop event: %+v %+v", ev, ev.Stop)
			}
			testtime.Wait(t, "the late reply of the halted goal", r.evs.has(body.SafetyLateReply))
			testtime.Wait(t, "the motion released", func() bool { return len(r.Body().InFlight()) == 0 })
			if _, killed := r.evs.find(body.SafetyKilled); killed {
				t.Fatal("the back-end was killed: the declared stop did not end the motion within stop_grace")
			}
			st := state(t, p.URL)
			if st.Arm.Moving || st.Arm.DashboardStops != 1 || st.CancelsIgnored < 1 || st.MaxMotions != 1 {
				t.Fatalf("arm after the stop: %+v (cancels ignored %d, most motions %d)", st.Arm, st.CancelsIgnored, st.MaxMotions)
			}
			if r.Uncertain() == "" {
				t.Fatal("certain after a motion was given up")
			}
			wantSuccess(t, r.call(t, "observe", `{}`))
			if why := r.Uncertain(); why != "" {
				t.Fatalf("still uncertain after a fresh observation: %s", why)
			}
		})
	}
}

// TestNoDeclaredStopArmKeepsMoving is the fault as found: without a stop,
// the hung pick is given up (killed after stop_grace) and the arm moves on.
func TestNoDeclaredStopArmKeepsMoving(t *testing.T) {
	p := fake(t, "-robot", "arm", "-hang-arm")
	r, err := startWith(t, p.URL, armWithout(t), opts{timeout: testtime.Scale(300 * time.Millisecond), stopGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, r.call(t, "pick", `{"object": "mug"}`), "timed out")
	testtime.Wait(t, "the goal given up", r.evs.has(rosbridge.SafetyGivenUp))
	ev, _ := r.evs.find(rosbridge.SafetyGivenUp)
	if !strings.Contains(ev.Text, "no stop is declared") {
		t.Fatalf("given-up event: %q", ev.Text)
	}
	if st := state(t, p.URL); !st.Arm.Moving || st.Arm.DashboardStops != 0 {
		t.Fatalf("arm: %+v", st.Arm)
	}
}

// TestDeclaredStopOnClose: closing the toolset with the hung pick in flight
// runs the declared stop; the arm halts.
func TestDeclaredStopOnClose(t *testing.T) {
	p := fake(t, "-robot", "arm", "-hang-arm")
	r, err := startWith(t, p.URL, section(t, arm), opts{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan runlog.Envelope, 1)
	go func() { done <- r.call(t, "pick", `{"object": "mug"}`) }()
	testtime.Wait(t, "the arm moving", func() bool { return state(t, p.URL).Arm.Moving })
	if err := r.g.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if _, ok := r.evs.find(rosbridge.SafetyDeclaredStop); !ok {
		t.Fatal("no declared stop on Close")
	}
	testtime.Wait(t, "the arm halted", func() bool { st := state(t, p.URL); return !st.Arm.Moving && st.Arm.DashboardStops >= 1 })
}

// TestDeclaredStopOnDroppedSocket: the socket drops mid-goal; once it is
// back, the orphaned goal is cancelled and, the cancel being ignored, the
// declared stop halts the arm before any new call can move it.
func TestDeclaredStopOnDroppedSocket(t *testing.T) {
	p := fake(t, "-robot", "arm", "-hang-arm", "-drop-mid-goal")
	r, err := startWith(t, p.URL, section(t, arm), opts{})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, r.call(t, "pick", `{"object": "mug"}`), "dropped")
	testtime.Wait(t, "the declared stop on the record", r.evs.has(rosbridge.SafetyDeclaredStop))
	testtime.Wait(t, "the arm halted", func() bool { st := state(t, p.URL); return !st.Arm.Moving && st.Arm.DashboardStops == 1 })
	if r.Uncertain() == "" {
		t.Fatal("certain after the socket dropped mid-goal")
	}
}

// TestDeclaredStopPublish: a stop declared as a bounded publish (a zero
// Twist, three times) runs when the cancel is ignored.
func TestDeclaredStopPublish(t *testing.T) {
	p := fake(t, "-ignore-cancel", "-nav-speed", "0.2")
	rb := section(t, turtlebot)
	delete(rb, "cmd_vel")
	rb["stop"] = map[string]any{"publish": map[string]any{"topic": "/cmd_vel", "type": "geometry_msgs/msg/Twist", "count": 3}}
	r, err := startWith(t, p.URL, rb, opts{timeout: testtime.Scale(300 * time.Millisecond), stopGrace: 100 * time.Millisecond, stopTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, r.call(t, "navigate_to", far), "timed out")
	testtime.Wait(t, "the declared stop on the record", r.evs.has(rosbridge.SafetyDeclaredStop))
	ev, _ := r.evs.find(rosbridge.SafetyDeclaredStop)
	if ev.Stop == nil || !ev.Stop.OK || ev.Stop.Tool != "3 message(s) on /cmd_vel" {
		t.Fatalf("declared stop: %+v %+v", ev, ev.Stop)
	}
	testtime.Wait(t, "three zero velocities in the fake", func() bool {
		st := state(t, p.URL)
		return st.CmdVel >= 3 && st.LastCmdVel == [2]float64{0, 0}
	})
}

// TestStopConfigErrors: a stop's problems are reported at their fields.
func TestStopConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		stop map[string]any
		want string
	}{
		{map[string]any{"service": map[string]any{"name": "/s", "type": "std_srvs/srv/Trigger"}, "action": map[string]any{"name": "/a", "type": "p/action/A"}}, "stop: a stop is exactly one of"},
		{map[string]any{}, "stop: a stop is exactly one of"},
		{map[string]any{"publish": map[string]any{"topic": "/estop", "type": "std_msgs/msg/Bool"}}, "stop.publish.message: "},
		{map[string]any{"service": map[string]any{"name": "/s", "type": "std_srvs/srv/Trigger", "request": "{x: args.speed}"}}, "stop.service.request: a stop has no arguments"},
		{map[string]any{"service": map[string]any{"name": "/s", "type": "std_msgs/msg/Bool"}}, "stop.service.type"},
		{map[string]any{"publish": map[string]any{"topic": "/cmd_vel", "type": "geometry_msgs/msg/Twist", "count": 0}}, "stop.publish.count"},
		{map[string]any{"halt": true}, "stop.halt: unknown field"},
	} {
		rb := section(t, turtlebot)
		rb["stop"] = tc.stop
		if err := loadErr(t, rb); !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stop %v: error %q lacks %q", tc.stop, err, tc.want)
		}
	}
}
