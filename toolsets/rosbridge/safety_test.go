package rosbridge_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// The safety tests: the fake rosbridge misbehaves in a real subprocess.

// far is a goal the slow fake (0.2 m/s) needs about 16 s to reach.
const far = `{"x": 3.0, "y": 1.0}`

// TestDroppedSocketMidGoal: the socket drops after the goal's first
// feedback. The call fails as a crash, the body is uncertain, and the goal
// (still driving on the robot) is cancelled as soon as the socket is back;
// a fresh observation clears the uncertainty.
func TestDroppedSocketMidGoal(t *testing.T) {
	p := fake(t, "-drop-mid-goal", "-nav-speed", "0.2")
	r := start(t, p.URL, opts{})
	wantFailure(t, r.call(t, "navigate_to", far), "dropped", "may still be moving")
	if r.Uncertain() == "" {
		t.Fatal("the body is certain after a socket dropped mid-goal")
	}
	testtime.Wait(t, "the reconnect event", r.evs.has(rosbridge.SafetyReconnected))
	ev, _ := r.evs.find(rosbridge.SafetyReconnected)
	if !strings.Contains(ev.Text, "cancel_action_goal sent") {
		t.Fatalf("reconnect event: %q", ev.Text)
	}
	testtime.Wait(t, "the orphaned goal cancelled on the robot", func() bool {
		st := state(t, p.URL)
		return st.GoalsCanceled == 1 && len(st.Goals) == 0
	})
	wantFailure(t, r.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`), "uncertain")
	wantSuccess(t, r.call(t, "observe", `{}`))
	if why := r.Uncertain(); why != "" {
		t.Fatalf("still uncertain after a fresh observation: %s", why)
	}
}

// TestCancelIgnored is the kill path: the goal times out, its cancel is
// ignored, so after stop_grace the goal is given up, a zero velocity goes
// to /cmd_vel, an event says so, and the body stays uncertain.
func TestCancelIgnored(t *testing.T) {
	p := fake(t, "-ignore-cancel", "-nav-speed", "0.2")
	r := start(t, p.URL, opts{timeout: testtime.Scale(300 * time.Millisecond), stopGrace: 100 * time.Millisecond, stopTimeout: 200 * time.Millisecond})
	wantFailure(t, r.call(t, "navigate_to", far), "timed out", "cancel")
	testtime.Wait(t, "the goal given up", r.evs.has(rosbridge.SafetyGivenUp))
	ev, _ := r.evs.find(rosbridge.SafetyGivenUp)
	if !strings.Contains(ev.Text, "given up") || !strings.Contains(ev.Text, "zero velocity was published on /cmd_vel") {
		t.Fatalf("given-up event: %q", ev.Text)
	}
	if stop, ok := r.evs.find(body.SafetyStop); !ok || stop.Stop == nil || stop.Stop.OK {
		t.Fatalf("the cancel is not on the record as failed: %+v", stop)
	}
	// The body layer records the kill after the kind has given the goal up.
	testtime.Wait(t, "the kill on the record", r.evs.has(body.SafetyKilled))
	testtime.Wait(t, "the motion released", func() bool { return len(r.Body().InFlight()) == 0 })
	if r.Uncertain() == "" {
		t.Fatal("certain after a goal was given up")
	}
	// The fake takes the publications from the socket in its own time.
	testtime.Wait(t, "the ignored cancel and the zero velocity in the fake's state", func() bool {
		st := state(t, p.URL)
		return st.CancelsIgnored > 0 && st.CmdVel > 0 && st.LastCmdVel == [2]float64{0, 0}
	})
}

// TestResultNeverSent: the goal ends on the robot but no result comes; the
// call times out, the cancel gets no result either, and the kill path ends
// the motion so the body is not held forever.
func TestResultNeverSent(t *testing.T) {
	p := fake(t, "-no-result")
	r := start(t, p.URL, opts{timeout: testtime.Scale(500 * time.Millisecond), stopGrace: 100 * time.Millisecond, stopTimeout: 100 * time.Millisecond})
	wantFailure(t, r.call(t, "navigate_to", `{"x": 0.2, "y": 0.0}`), "timed out")
	testtime.Wait(t, "the goal given up", r.evs.has(rosbridge.SafetyGivenUp))
	testtime.Wait(t, "the motion released", func() bool { return len(r.Body().InFlight()) == 0 })
	if st := state(t, p.URL); st.GoalsSucceeded != 1 {
		t.Fatalf("the goal did not end on the robot: %+v", st)
	}
	// Killed without its result, the goal's end is read from its action's
	// status topic on the new socket; only then does an observation count.
	testtime.Wait(t, "the goal's end reported", r.evs.has(body.SafetyEndReported))
	wantSuccess(t, r.call(t, "observe", `{}`))
	wantSuccess(t, r.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`))
}

// TestGarbageFrames: garbage is counted as events and never taken for a
// reply; the calls around it answer.
func TestGarbageFrames(t *testing.T) {
	p := fake(t, "-garbage")
	r := start(t, p.URL, opts{})
	wantSuccess(t, r.call(t, "dock", `{}`)) // the robot starts on its dock
	wantSuccess(t, r.call(t, "observe", `{}`))
	testtime.Wait(t, "garbage events", r.evs.has(rosbridge.SafetyGarbage))
}

// TestOverlappingGoals: three goals asked at once run one after the other
// (never two motions on the robot), and a goal asked while an abandoned one
// still drives is refused.
func TestOverlappingGoals(t *testing.T) {
	p := fake(t, "-nav-speed", "2")
	r := start(t, p.URL, opts{})
	var wg sync.WaitGroup
	for _, args := range []string{`{"x": 0.5, "y": 0.0}`, `{"x": 0.5, "y": 0.5}`, `{"x": 0.0, "y": 0.5}`} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if env := r.call(t, "navigate_to", args); !env.Success {
				t.Errorf("navigate_to %s: %s", args, env.Reason)
			}
		}()
	}
	wg.Wait()
	if st := state(t, p.URL); st.MaxMotions != 1 || st.GoalsSucceeded != 3 || st.GoalsAborted != 0 {
		t.Fatalf("fake state: most motions at once %d, succeeded %d, aborted %d", st.MaxMotions, st.GoalsSucceeded, st.GoalsAborted)
	}
}

// TestAbandonedGoalRefusesTheNext: with the cancel ignored, a goal asked
// while the abandoned one is in its stop path is refused, and the fake
// never sees two motions.
func TestAbandonedGoalRefusesTheNext(t *testing.T) {
	p := fake(t, "-ignore-cancel", "-nav-speed", "0.2")
	r := start(t, p.URL, opts{timeout: testtime.Scale(200 * time.Millisecond), stopGrace: testtime.Scale(2 * time.Second), stopTimeout: 100 * time.Millisecond})
	wantFailure(t, r.call(t, "navigate_to", far), "timed out")
	wantFailure(t, r.call(t, "navigate_to", `{"x": 0.0, "y": 1.0}`), "a motion is still running")
	wantFailure(t, r.call(t, "drive", `{"speed": 0.1, "distance": 0.01}`), "did not run")
	if st := state(t, p.URL); st.MaxMotions > 1 || st.GoalsReceived != 1 {
		t.Fatalf("fake state: most motions at once %d, goals received %d", st.MaxMotions, st.GoalsReceived)
	}
}
