package bodysuite_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A motion that keeps going after its timeout holds the body until its
// back-end is killed: every physical call meanwhile is refused, and the
// server never sees two motions at once, across timeouts and restarts.
func TestFaultTimeoutNeverOverlaps(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		cfg := spec.Toolsets["base"]
		// Long enough on a loaded machine for the next call to find the motion
		// still running; the kill still comes within it.
		cfg.StopGrace = schema.Duration(testtime.Scale(150 * time.Millisecond))
		spec.Toolsets["base"] = cfg
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		for round := range 2 {
			wantFailure(t, call(t, ts, "move_base", `{"ms":5000}`), "timed out", "the motion may still be running", tr.killSays)
			wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "a motion is still running", "move_base on the base back-end", "timed out")
			waitMotionEnd(t, ts)
			wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain")
			endAfterKill(t, tr, ts, &evs)
			wantSuccess(t, call(t, ts, "observe", `{}`))
			wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
			// A row whose own stop path ends the motion (an arm's declared
			// stop) needs no kill; the others' back-end is killed, and the
			// stop path's own kill is not a restart of max_restarts.
			if ts.Restarts() != 0 {
				t.Fatalf("round %d: restarts = %d, want 0", round, ts.Restarts())
			}
		}
		ended := body.SafetyKilled
		if tr.stopEnds {
			ended = body.SafetyLateReply
		}
		if ev, ok := evs.find(ended); !ok || ev.Tool != "move_base" {
			t.Fatalf("no %s event: %v", ended, evs.kinds())
		}
		noOverlaps(t, dir)
	})
}

// The kind's stop (the declared stop tool) is called at once on a timeout and on a
// cancellation; the motion's late reply is reported, and the back-end is not
// killed because the stop ended the motion.
func TestFaultStopToolOnTimeoutAndCancel(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		withStop(tr, spec, "base", "ok", testtime.Scale(5*time.Second))
		cfg := spec.Toolsets["base"]
		cfg.StopGrace = schema.Duration(testtime.Scale(5 * time.Second)) // the stop, not the kill, ends it
		spec.Toolsets["base"] = cfg
		var evs events
		deps := body.Shared{OnSafety: evs.add, Bodies: body.NewBodies(), Locks: body.NewPhysicalLocks()}
		ts := startFault(t, tr, spec, "base", deps)

		_, _, name := tr.stopRecord("ok")
		wantFailure(t, call(t, ts, "move_base", `{"ms":60000}`), "timed out", "called the "+name)
		waitMotionEnd(t, ts)
		if n := logLines(t, dir, "stop"); n != 1 {
			t.Fatalf("stop tool calls = %d, want 1", n)
		}
		late, ok := evs.find(body.SafetyLateReply)
		if !ok || !tr.stopped(late.Envelope) {
			t.Fatalf("late reply = %+v (events %v)", late, evs.kinds())
		}
		if ev, _ := evs.find(body.SafetyStop); !ev.Envelope.Success || !strings.Contains(ev.Text, "move_base timed out") {
			t.Fatalf("stop event = %+v", ev)
		}

		// Cancelled once the motion runs on the server: a toolset of the
		// same body whose move_base has no timeout, so only the
		// cancellation can end the call.
		spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
		ts2 := startFault(t, tr, spec, "base", deps)
		ts2.ClearUncertain() // the operator's clear, of the whole body
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan string, 1)
		tool := toolByName(t, ts2, "move_base")
		go func() { done <- tool.Call(callgate.Through(ctx), json.RawMessage(`{"ms":60000}`)).Reason }()
		waitLog(t, dir, "start", 2)
		cancel()
		if r := <-done; !strings.Contains(r, "cancelled") {
			t.Fatalf("reason = %q", r)
		}
		waitMotionEnd(t, ts2)
		if n := logLines(t, dir, "stop"); n != 2 {
			t.Fatalf("stop tool calls = %d, want 2", n)
		}
		if ts.Restarts() != 0 || ts2.Restarts() != 0 {
			t.Fatalf("restarts = %d, %d: the stop tool should have ended the motions", ts.Restarts(), ts2.Restarts())
		}
		noOverlaps(t, dir)
	})
}

// Only a well-formed observation taken after the motion ended clears
// uncertainty: plain text, a JSON array, wrong types and {} are failed
// observations whose raw text is kept, and an observation taken while the
// motion still runs clears nothing.
func TestFaultUncertaintyClearedOnlyByObservation(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		lastWords := ""
		if tr.lastWords {
			lastWords = "crashing mid-motion"
		}
		order := tr.observeOrder
		if order == nil {
			order = slices.Sorted(maps.Keys(tr.observeFaults))
		}
		// The first fault is set before the crash: a back-end that restarts
		// must not publish a good reading newer than the crash before the
		// test says it is silent (that reading would rightly clear).
		setObserve(t, dir, order[0])
		wantFailure(t, call(t, ts, "crash", `{}`), "crashed during crash", lastWords)
		for _, mode := range order {
			want := tr.observeFaults[mode]
			setObserve(t, dir, mode)
			wantFailure(t, call(t, ts, "observe", `{}`), want...)
			wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain", "crash crashed")
		}
		if n := evs.count(body.SafetyObservationFailed, tr.rawText); tr.rawMode != "" && n != 1 {
			t.Fatalf("the %s observation reported %d times, want once with its raw text: %v", tr.rawMode, n, evs.kinds())
		}

		// A good observation while an abandoned motion still runs clears nothing.
		setObserve(t, dir, "good")
		cfg := spec.Toolsets["base"]
		cfg.StopGrace = schema.Duration(testtime.Scale(10 * time.Second))
		spec.Toolsets["base"] = cfg
		ts2 := startFault(t, tr, spec, "base", body.Shared{})
		wantFailure(t, call(t, ts2, "move_base", `{"ms":0,"fault":"gate"}`), "timed out")
		wantSuccess(t, call(t, ts2, "observe", `{}`))
		if len(ts2.Body().InFlight()) == 0 || ts2.Uncertain() == "" {
			t.Fatalf("an observation taken during the motion cleared uncertainty (in flight %v)", ts2.Body().InFlight())
		}
		release(t, dir)
		waitMotionEnd(t, ts2)
		wantFailure(t, call(t, ts2, "move_base", `{"ms":1}`), "uncertain")
		wantSuccess(t, call(t, ts2, "observe", `{}`))
		wantSuccess(t, call(t, ts2, "move_base", `{"ms":1}`))
		noOverlaps(t, dir)
	})
}

// Uncertainty and the motion lock are the body's: a motion stuck on the base
// back-end refuses the arm back-end's physical calls, and an observation
// served by the arm clears the base. With uncertainty "toolset" the arm is
// independent.
func TestFaultBodyWideUncertainty(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base", "arm")
		cfg := spec.Toolsets["base"]
		cfg.StopGrace = schema.Duration(testtime.Scale(10 * time.Second))
		spec.Toolsets["base"] = cfg
		spec.Observation.Tool = "arm.observe"
		deps := body.Shared{Locks: body.NewPhysicalLocks(), Bodies: body.NewBodies()}
		base := startFault(t, tr, spec, "base", deps)
		arm := startFault(t, tr, spec, "arm", deps)
		wantFailure(t, call(t, base, "move_base", `{"ms":0,"fault":"gate"}`), "timed out")
		wantFailure(t, call(t, arm, "move_base", `{"ms":1}`), "a motion is still running", "on the base back-end")
		release(t, dir)
		waitMotionEnd(t, base)
		wantFailure(t, call(t, arm, "move_base", `{"ms":1}`), "uncertain", "any part of the body")
		wantSuccess(t, call(t, arm, "observe", `{}`))
		wantSuccess(t, call(t, base, "move_base", `{"ms":1}`))
		noOverlaps(t, dir)

		// Scoped per toolset: the arm runs while the base's motion is stuck.
		_, dir2 := newFaultDir(t)
		spec2 := faultSpec(tr, self, dir2, "base", "arm")
		spec2.Safety.Uncertainty = "toolset"
		cfg2 := spec2.Toolsets["base"]
		cfg2.StopGrace = schema.Duration(testtime.Scale(10 * time.Second))
		spec2.Toolsets["base"] = cfg2
		deps2 := body.Shared{Locks: body.NewPhysicalLocks(), Bodies: body.NewBodies()}
		base2 := startFault(t, tr, spec2, "base", deps2)
		arm2 := startFault(t, tr, spec2, "arm", deps2)
		wantFailure(t, call(t, base2, "move_base", `{"ms":0,"fault":"gate"}`), "timed out")
		wantFailure(t, call(t, base2, "move_base", `{"ms":1}`), "a motion is still running")
		env := call(t, arm2, "move_base", `{"ms":1}`)
		wantSuccess(t, env)
		release(t, dir2)
		waitMotionEnd(t, base2)
		wantFailure(t, call(t, base2, "move_base", `{"ms":1}`), "uncertain", "the base toolset")
	})
}

// Closing the session with a motion in flight calls the kind's stop first.
func TestFaultStopToolOnClose(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		withStop(tr, spec, "base", "ok", testtime.Scale(5*time.Second))
		spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		done := make(chan runlog.Envelope, 1)
		tool := toolByName(t, ts, "move_base")
		go func() { done <- tool.Call(callgate.Through(t.Context()), json.RawMessage(`{"ms":60000}`)) }()
		waitLog(t, dir, "start", 1)
		if err := ts.Close(); err != nil {
			t.Fatal(err)
		}
		// Either the stop ended the motion (it answers, stopped) or the back-end
		// was killed under it.
		if env := <-done; !tr.stopped(env) && (env.Success || !strings.Contains(env.Reason, "closed")) {
			t.Fatalf("move = %+v", env)
		}
		if n := logLines(t, dir, "stop"); n != 1 {
			t.Fatalf("stop tool calls on close = %d, want 1", n)
		}
		if ev, ok := evs.find(body.SafetyStop); !ok || !strings.Contains(ev.Text, "the session closed") {
			t.Fatalf("stop event = %+v", ev)
		}
	})
}
