package bodysuite_test

import (
	"encoding/json"
	"fmt"
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
)

// The arm's row: the fake rosbridge as a UR-class arm (rosbridgetest
// -robot arm) serving the fault contract, supervised in a subprocess as the
// rosbridge row's, through a toolset whose cancels the arm ignores (a hung
// skill server) and whose declared stop is the arm's dashboard stop
// (/dashboard_client/stop, which ends every motion): the stop path is the
// cancel, then after cancel_timeout the declared stop, then the kill. A
// stop that hangs is a declared stop on a service that never answers.

// armCancelTimeout is how long the row's toolset waits for an ignored
// cancel before its declared stop.
var armCancelTimeout = testtime.Scale(100 * time.Millisecond)

func rosbridgeArmTransport() transport {
	tr := rosbridgeTransport()
	tr.name = "rosbridge-arm"
	tr.toolset = func(self, dir string) schema.Toolset {
		return schema.Toolset{Kind: "rosbridge", StartTimeout: schema.Duration(testtime.Scale(3 * time.Second)),
			Config: rosbridge.Section{URL: superviseRosRobot(self, dir, rosbridgetest.RobotArm) + ignoreCancel,
				Rosbridge: rosBlock(armFaultSection("ok", testtime.Scale(2*time.Second)))}}
	}
	tr.stop = func(ts *schema.Toolset, mode string, timeout time.Duration) {
		sec := ts.Config.(rosbridge.Section)
		sec.Rosbridge = rosBlock(armFaultSection(mode, timeout))
		ts.Config = sec
	}
	tr.yaml = func(self, dir, stop, stopTimeout string) (string, []string) {
		d, err := time.ParseDuration(stopTimeout)
		if err != nil || stop == "" {
			stop, d = "ok", testtime.Scale(2*time.Second)
		}
		sec, err := json.Marshal(armFaultSection(stop, d))
		if err != nil {
			panic(err)
		}
		url := superviseRosRobot(self, dir, rosbridgetest.RobotArm) + ignoreCancel
		return fmt.Sprintf("    kind: rosbridge\n    url: %q\n    start_timeout: %s\n    rosbridge: %s\n", url, testtime.Scale(3*time.Second), sec), nil
	}
	tr.stopRecord = func(mode string) (string, string, string) {
		return runlog.StopViaCancel, "", rosStopName + ", then the declared stop (service " + armStopService(mode) + ")"
	}
	tr.serve = func() (int, bool) { return 0, false } // the rosbridge row's serves both
	tr.stopEnds = true
	return tr
}

// armStopService is the declared stop's service of a stop mode: the
// dashboard stop, or for "hang" a probe that never answers.
func armStopService(mode string) string {
	if mode == "hang" {
		return rosbridgetest.FaultService
	}
	return rosbridgetest.ServiceDashboardStop
}

// armFaultSection is the fault contract's section with the arm's declared
// stop (mode "ok": the dashboard stop; "hang": a stop that never answers)
// bounded by timeout, and no cmd_vel.
func armFaultSection(mode string, timeout time.Duration) map[string]any {
	sec := rosFaultSection(armCancelTimeout)
	delete(sec, "cmd_vel")
	stop := map[string]any{"name": rosbridgetest.ServiceDashboardStop, "type": rosbridgetest.TypeTrigger}
	if mode == "hang" {
		stop = map[string]any{"name": rosbridgetest.FaultService, "type": "thea_fault/srv/Probe", "request": "{fault: 'hang'}"}
	}
	sec["stop"] = map[string]any{"timeout": timeout.String(), "service": stop}
	return sec
}

// armRow is the suite's arm row.
func armRow(t testing.TB) transport {
	t.Helper()
	for _, tr := range transports() {
		if tr.name == "rosbridge-arm" {
			return tr
		}
	}
	t.Fatal("no rosbridge-arm row")
	return transport{}
}

// A motion that hangs and ignores its cancel (a skill server stuck in its
// plan) is ended by the arm's declared stop within stop_grace: the stop is
// on the record as succeeded, the motion's late reply says it was stopped,
// the back-end is not killed, the server never sees two motions, and the
// body stays uncertain until a fresh observation.
func TestFaultHungMotionEndedByDeclaredStop(t *testing.T) {
	tr := armRow(t)
	self, dir := newFaultDir(t)
	spec := faultSpec(tr, self, dir, "base")
	cfg := spec.Toolsets["base"]
	cfg.StopGrace = schema.Duration(testtime.Scale(2 * time.Second))
	spec.Toolsets["base"] = cfg
	var evs events
	ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
	wantFailure(t, call(t, ts, "move_base", `{"ms":60000,"fault":"hang"}`), "timed out", "declared stop (service /dashboard_client/stop)")
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "a motion is still running")
	waitMotionEnd(t, ts)
	stop, ok := evs.find(rosbridge.SafetyDeclaredStop)
	if !ok || stop.Stop == nil || !stop.Stop.OK || stop.Stop.Via != runlog.StopViaDeclared || stop.Tool != "move_base" {
		t.Fatalf("declared stop: %+v (events %v)", stop, evs.kinds())
	}
	late, ok := evs.find(body.SafetyLateReply)
	if !ok || !tr.stopped(late.Envelope) {
		t.Fatalf("late reply = %+v (events %v)", late, evs.kinds())
	}
	if _, killed := evs.find(body.SafetyKilled); killed || ts.Restarts() != 0 {
		t.Fatalf("the back-end was killed (restarts %d): the declared stop did not end the motion within stop_grace", ts.Restarts())
	}
	if n := logLines(t, dir, "stop (dashboard)"); n != 1 {
		t.Fatalf("dashboard stops = %d, want 1", n)
	}
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain")
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
	noOverlaps(t, dir)
}

// BenchmarkArmStopLatency measures the arm row's stop path on a motion
// that hangs and ignores its cancel: from the call giving up (its timeout)
// to the motion's end (its late reply after the declared stop, as its
// safety event is emitted), which
// includes cancel_timeout; and the declared stop's own call.
func BenchmarkArmStopLatency(b *testing.B) {
	tr := armRow(b)
	self, dir := newFaultDir(b)
	spec := faultSpec(tr, self, dir, "base")
	cfg := spec.Toolsets["base"]
	cfg.StopGrace = schema.Duration(5 * time.Second)
	// A short cancel_timeout: what follows it is the declared stop's
	// latency, reported beside it.
	const cancelTimeout = 20 * time.Millisecond
	sec := cfg.Config.(rosbridge.Section)
	sec.Rosbridge.CancelTimeout = cancelTimeout.String()
	cfg.Config = sec
	spec.Toolsets["base"] = cfg
	var evs events
	ended := make(chan time.Time, 1)
	ts := startFault(b, tr, spec, "base", body.Shared{OnSafety: func(ev engine.SafetyEvent) {
		evs.add(ev)
		if ev.Kind == body.SafetyLateReply {
			ended <- time.Now()
		}
	}})
	move := toolByName(b, ts, "move_base")
	observe := toolByName(b, ts, "observe")
	var total, declared time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env := move.Call(callgate.Through(b.Context()), json.RawMessage(`{"ms":60000,"fault":"hang"}`))
		gaveUp := time.Now()
		if env.Success {
			b.Fatal("the hung motion answered")
		}
		total += (<-ended).Sub(gaveUp)
		b.StopTimer()
		testtime.Wait(b, "the motion released", func() bool { return len(ts.Body().InFlight()) == 0 })
		if env := observe.Call(callgate.Through(b.Context()), json.RawMessage(`{}`)); !env.Success {
			b.Fatalf("observe: %s", env.Reason)
		}
		b.StartTimer()
	}
	b.StopTimer()
	for _, ev := range evs.all(rosbridge.SafetyDeclaredStop) {
		declared += time.Duration(ev.Stop.DurationMS * float64(time.Millisecond))
	}
	if _, killed := evs.find(body.SafetyKilled); killed {
		b.Fatal("a motion was killed: the declared stop did not end it")
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "giveup-to-end-ms")
	b.ReportMetric(float64((total/time.Duration(b.N)-cancelTimeout).Microseconds())/1000, "after-cancel-timeout-ms")
	b.ReportMetric(float64(declared.Microseconds())/1000/float64(b.N), "declared-stop-ms")
}
