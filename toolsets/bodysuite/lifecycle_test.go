package bodysuite_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The restart budget: each crash is restarted on the next call until
// max_restarts is spent, then every call says so; with max_restarts 0 the
// crash itself says the back-end stays down.
func TestFaultRestartBudget(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		cfg := spec.Toolsets["base"]
		cfg.Restart.MaxRestarts = 1
		spec.Toolsets["base"] = cfg
		ts := startFault(t, tr, spec, "base", body.Shared{})
		wantFailure(t, call(t, ts, "probe", `{"fault":"crash"}`), "crashed", "it is restarted on the next call")
		wantSuccess(t, call(t, ts, "probe", `{}`))
		wantFailure(t, call(t, ts, "probe", `{"fault":"crash"}`), "crashed")
		wantFailure(t, call(t, ts, "probe", `{}`), "restarted 1 times, the most allowed")
		wantFailure(t, call(t, ts, "pid", `{}`), "the most allowed")

		cfg.Restart.MaxRestarts = 0
		spec.Toolsets["base"] = cfg
		none := startFault(t, tr, spec, "base", body.Shared{})
		env := call(t, none, "probe", `{"fault":"crash"}`)
		wantFailure(t, env, "crashed", "max_restarts is 0", "not restarted")
		if strings.Contains(env.Reason, "restarted on the next call") {
			t.Fatalf("reason promises a restart that will not happen: %q", env.Reason)
		}
		wantFailure(t, call(t, none, "probe", `{}`), "the most allowed")
	})
}

// The operator's clear ends uncertainty without an observation; with
// on_uncertain continue a fault leaves the body certain.
func TestFaultOperatorClearAndContinue(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		ts := startFault(t, tr, spec, "base", body.Shared{})
		wantFailure(t, call(t, ts, "move_base", `{"ms":60000}`), "timed out")
		waitMotionEnd(t, ts)
		wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain")
		ts.ClearUncertain()
		if ts.Uncertain() != "" {
			t.Fatal("still uncertain after the operator's clear")
		}
		wantSuccess(t, callAfterRestart(t, ts, "move_base", `{"ms":1}`))

		cfg := spec.Toolsets["base"]
		cfg.OnUncertain = "continue"
		spec.Toolsets["base"] = cfg
		ts2 := startFault(t, tr, spec, "base", body.Shared{})
		wantFailure(t, call(t, ts2, "move_base", `{"ms":60000}`), "timed out")
		waitMotionEnd(t, ts2)
		if ts2.Uncertain() != "" {
			t.Fatalf("on_uncertain continue still refuses: %s", ts2.Uncertain())
		}
		wantSuccess(t, callAfterRestart(t, ts2, "move_base", `{"ms":1}`))
		noOverlaps(t, dir)
	})
}

// Close while a motion is in flight: the call says the toolset was closed
// (or that the stop path ended it), never that the back-end crashed; the
// body is left uncertain, and later calls say the toolset is closed.
func TestFaultCloseDuringCall(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
		ts := startFault(t, tr, spec, "base", body.Shared{})
		done := make(chan runlog.Envelope, 1)
		tool := toolByName(t, ts, "move_base")
		go func() { done <- tool.Call(callgate.Through(t.Context()), json.RawMessage(`{"ms":60000}`)) }()
		waitLog(t, dir, "start", 1)
		if err := ts.Close(); err != nil {
			t.Fatal(err)
		}
		var env runlog.Envelope
		select {
		case env = <-done:
		case <-time.After(testtime.Scale(10 * time.Second)):
			t.Fatal("the call did not end after Close")
		}
		if strings.Contains(env.Reason, "crashed") || !tr.stopped(env) && !strings.Contains(env.Reason, "closed") {
			t.Fatalf("a call ended by Close: %+v", env)
		}
		if u := ts.Uncertain(); !strings.Contains(u, "the session clos") {
			t.Fatalf("Close during a motion left the body certain: %q", u)
		}
		wantFailure(t, call(t, ts, "probe", `{}`), "closed")
	})
}
