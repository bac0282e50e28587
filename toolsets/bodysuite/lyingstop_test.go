package bodysuite_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// A stop that lies, on the rosbridge row's fake robot in its subprocess: a
// goal that ignores its cancel and every stop (fault runaway), a declared
// stop service that answers success and does nothing (or answers
// success: false), then the kill. Only the robot's own word ends that
// motion: its action's status topic listing no goal running, or an
// operator's clear; a fresh odometry does not.

// lyingStopFault starts the rosbridge row's toolset whose declared stop is
// service (rosbridgetest.FaultStopLies or FaultStopRefuses).
func lyingStopFault(t *testing.T, service string) (*started, *events, string) {
	t.Helper()
	return lyingStopFaultWith(t, service, func(map[string]any) {})
}

// lyingStopFaultWith is lyingStopFault with its rosbridge block changed by
// edit first.
func lyingStopFaultWith(t *testing.T, service string, edit func(sec map[string]any)) (*started, *events, string) {
	t.Helper()
	tr := rosbridgeTransport()
	self, dir := newFaultDir(t)
	spec := faultSpec(tr, self, dir, "base")
	cfg := spec.Toolsets["base"]
	sec := rosFaultSection(testtime.Scale(100 * time.Millisecond))
	sec["stop"] = map[string]any{"timeout": testtime.Scale(2 * time.Second).String(),
		"service": map[string]any{"name": service, "type": rosbridgetest.TypeTrigger}}
	edit(sec)
	rs := cfg.Config.(rosbridge.Section)
	rs.Rosbridge = rosBlock(sec)
	cfg.Config = rs
	cfg.StopGrace = schema.Duration(testtime.Scale(100 * time.Millisecond))
	spec.Toolsets["base"] = cfg
	evs := &events{}
	ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
	t.Cleanup(func() { release(t, dir) }) // let the runaway goal end before the fake does
	return ts, evs, dir
}

// runaway gives up a goal that nothing stops and waits for its kill.
func runaway(t *testing.T, ts *started) {
	t.Helper()
	wantFailure(t, call(t, ts, "move_base", `{"ms":60000,"fault":"runaway"}`), "timed out")
	waitMotionEnd(t, ts)
}

// wantUnreported checks the event of a motion killed without its end.
func wantUnreported(t *testing.T, evs *events) {
	t.Helper()
	if _, ok := evs.find(body.SafetyEndUnreported); !ok {
		t.Fatalf("no %s event after the kill: %v", body.SafetyEndUnreported, evs.kinds())
	}
}

func TestLyingStopKeepsBodyUncertainUntilGoalEnds(t *testing.T) {
	ts, evs, dir := lyingStopFault(t, rosbridgetest.FaultStopLies)
	runaway(t, ts)
	if n := logLines(t, dir, "stop (lies)"); n < 1 {
		t.Fatalf("the declared stop was not called: %v", evs.kinds())
	}
	// A fresh odometry is no proof the goal ended: the next motion is refused.
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "the previous motion move_base", "never reported an end",
		"an observation does not clear it")
	wantUnreported(t, evs)
	if n := logLines(t, dir, "runaway ended"); n != 0 {
		t.Fatalf("the runaway goal ended before it was released")
	}
	// The robot finally ends the goal; its status topic says so on the new socket.
	release(t, dir)
	testtime.Wait(t, "the goal's end reported", func() bool {
		_, ok := evs.find(body.SafetyEndReported)
		return ok
	})
	if _, ok := evs.find(rosbridge.SafetyGoalEnded); !ok {
		t.Fatalf("no %s event: %v", rosbridge.SafetyGoalEnded, evs.kinds())
	}
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain") // then a fresh observation
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
	noOverlaps(t, dir)
}

func TestRefusedStopIsFailedAndOperatorClears(t *testing.T) {
	ts, evs, dir := lyingStopFault(t, rosbridgetest.FaultStopRefuses)
	runaway(t, ts)
	declared, ok := evs.find(rosbridge.SafetyDeclaredStop)
	if !ok || declared.Stop == nil || declared.Stop.OK || declared.Envelope.Success ||
		!strings.Contains(declared.Envelope.Reason, rosbridgetest.StopRefusedMessage) {
		t.Fatalf("the refused stop is not on the record as failed: %+v", declared)
	}
	stop, ok := evs.find(body.SafetyStop)
	if !ok || stop.Stop == nil || stop.Stop.OK || stop.Stop.Via != runlog.StopViaCancel {
		t.Fatalf("the stop path is not on the record as failed: %+v", stop)
	}
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "never reported an end", "failed")
	wantUnreported(t, evs)
	// The operator vouches that the robot stopped.
	ts.ClearUncertain()
	if why := ts.Uncertain(); why != "" {
		t.Fatalf("still uncertain after the operator's clear: %s", why)
	}
	wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
	if n := logLines(t, dir, "runaway ended"); n != 0 {
		t.Fatalf("the runaway goal ended: the operator's clear was not what allowed the motion")
	}
}

// A declared stopped reading (rosbridge.stopped_reading) that reads true
// ends the unreported motion, though its goal still runs on the fake.
func TestStoppedReadingEndsUnreportedMotion(t *testing.T) {
	ts, evs, dir := lyingStopFaultWith(t, rosbridgetest.FaultStopLies, func(sec map[string]any) {
		sec["readings"] = map[string]any{"sources": map[string]any{
			"stopped": map[string]any{"topic": rosbridgetest.FaultStoppedTopic, "type": "std_msgs/msg/Bool"}}}
		sec["stopped_reading"] = "stopped"
	})
	runaway(t, ts)
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "never reported an end")
	wantUnreported(t, evs)
	if err := os.WriteFile(filepath.Join(dir, rosbridgetest.StoppedFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	testtime.Wait(t, "the stopped reading ending the motion", func() bool {
		_, ok := evs.find(body.SafetyEndReported)
		return ok
	})
	if got := evs.texts(rosbridge.SafetyGoalEnded); len(got) != 1 || !strings.Contains(got[0], "the stopped reading stopped ("+rosbridgetest.FaultStoppedTopic+") reads true") {
		t.Fatalf("goal-ended events: %q", got)
	}
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
}

// A read-only call in flight when the stop path kills the socket is
// interrupted, not crashed: no backend_crashed event, no restart counted.
func TestStopPathKillInterruptsOtherCall(t *testing.T) {
	ts, evs, dir := lyingStopFault(t, rosbridgetest.FaultStopLies)
	probe := make(chan runlog.Envelope, 1)
	go func() { probe <- call(t, ts, "probe", `{"fault":"hang"}`) }()
	waitLog(t, dir, "probe hang", 1)
	runaway(t, ts)
	env := <-probe
	wantFailure(t, env, "probe was interrupted", "did not crash", "try again")
	if strings.Contains(env.Reason, "crashed during") {
		t.Fatalf("the probe is reported as a crash: %s", env.Reason)
	}
	wantSuccess(t, callAfterRestart(t, ts, "probe", `{}`))
	if _, crashed := evs.find(body.SafetyCrashed); crashed || ts.Restarts() != 0 {
		t.Fatalf("the stop path's kill counted as a crash (restarts %d): %v", ts.Restarts(), evs.kinds())
	}
	if _, ok := evs.find(body.SafetyInterrupted); !ok {
		t.Fatalf("no %s event: %v", body.SafetyInterrupted, evs.kinds())
	}
}

// endAfterKill ends, for a test of the rest of the stop path, a killed
// motion whose end was never reported: on a rosbridge row the fake's
// status topic reports it (the kill's zero velocity or the motion's own
// time ended the goal); a killed process reports nothing, so there the
// operator clears it.
func endAfterKill(t *testing.T, tr transport, ts *started, evs *events) {
	t.Helper()
	if strings.HasPrefix(tr.name, "rosbridge") {
		testtime.Wait(t, "the robot reporting the killed motion's end", func() bool {
			return len(evs.all(body.SafetyEndReported)) >= len(evs.all(body.SafetyEndUnreported))
		})
		return
	}
	if strings.Contains(ts.Uncertain(), "never reported an end") {
		ts.ClearUncertain()
	}
}
