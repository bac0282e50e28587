package bodysuite_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
)

// Each test drives the fault server into one misbehaviour and checks that
// the toolset survives it (the next call works), that the envelope says what
// happened, and that it is an event.

// A crash mid-call is a failure naming the crash and the back-end's last
// words, and an event; the next call restarts it (an event too).
func TestFaultCrashMidCallThenRestartEvent(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		var evs events
		ts := startFault(t, tr, faultSpec(tr, self, dir, "base"), "base", body.Shared{OnSafety: evs.add})
		lastWords := ""
		if tr.lastWords {
			lastWords = "crashing mid-call"
		}
		wantFailure(t, call(t, ts, "probe", `{"fault":"crash"}`), "the base back-end crashed during probe", lastWords, "restarted on the next call")
		wantSuccess(t, call(t, ts, "probe", `{}`))
		if ev, ok := evs.find(body.SafetyCrashed); !ok || ev.Tool != "probe" || !strings.Contains(ev.Text, lastWords) {
			t.Fatalf("crash event: %+v (%v)", ev, evs.kinds())
		}
		if got := evs.texts(body.SafetyRestarted); len(got) != 1 || !strings.Contains(got[0], "restart 1 of at most 10") {
			t.Fatalf("restart events: %q", got)
		}
	})
}

// A back-end that exits at start fails the start, with its last words;
// one that exits when restarted is a failed-restart event, and the toolset
// recovers when the back-end does.
func TestFaultExitAtStart(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		// The start mode first: a rosbridge row's supervisor starts its
		// first server as faultSpec returns, and a server reads the mode
		// once, as it starts.
		setStart(t, dir, "exit")
		spec := faultSpec(tr, self, dir, "base")
		// A back-end that keeps exiting fails a start only at start_timeout
		// when the kind waits for it (rosbridge dials until then): short,
		// but room for the restart that recovers.
		cfg := spec.Toolsets["base"]
		cfg.StartTimeout = schema.Duration(testtime.Scale(500 * time.Millisecond))
		spec.Toolsets["base"] = cfg
		_, err := start(t.Context(), tr, spec, "base", body.Shared{})
		if err == nil || tr.lastWords && !strings.Contains(err.Error(), "exiting at start as asked") {
			t.Fatalf("start error: %v", err)
		}
		setStart(t, dir, "")
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		// Exit at start from now on, set before the crash: a rosbridge
		// row's supervisor starts the next server 100ms after one exits,
		// whether or not the test has written the mode by then.
		setStart(t, dir, "exit")
		wantFailure(t, call(t, ts, "probe", `{"fault":"crash"}`), "crashed")
		wantFailure(t, call(t, ts, "probe", `{}`), "could not be restarted")
		if got := evs.texts(body.SafetyRestartFailed); len(got) != 1 || !strings.Contains(got[0], "restart 1 of at most 10") {
			t.Fatalf("failed-restart events: %q", got)
		}
		setStart(t, dir, "")
		wantSuccess(t, call(t, ts, "probe", `{}`))
	})
}

// A back-end that hangs at start fails the start at start_timeout.
func TestFaultHangAtStart(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		setStart(t, dir, "hang") // before the supervisor's first server starts
		spec := faultSpec(tr, self, dir, "base")
		cfg := spec.Toolsets["base"]
		cfg.StartTimeout = schema.Duration(200 * time.Millisecond)
		spec.Toolsets["base"] = cfg
		_, err := start(t.Context(), tr, spec, "base", body.Shared{})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("start error: %v", err)
		}
	})
}

// A frozen back-end (SIGSTOP: no thread answers) times the call out; it does
// not answer the liveness check that follows either, so it is killed and the next call
// restarts it, instead of every later call timing out.
func TestFaultFrozenBackendKilledAndRestarted(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		// The call must time out because the back-end froze, not because a
		// loaded machine let the timeout pass before the back-end read the
		// call: then the liveness check reaches a back-end still running,
		// which answers it. A frozen back-end never answers, so the scaled
		// timeout costs only time, and the reason is the same whatever it is.
		spec.Tools["base.probe"] = schema.ToolContract{Timeout: schema.Duration(testtime.Scale(100 * time.Millisecond))}
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		wantFailure(t, call(t, ts, "probe", `{"fault":"freeze"}`), "probe timed out", "did not answer a liveness check", "killed", "restarted on the next call")
		if _, ok := evs.find(body.SafetyUnresponsive); !ok {
			t.Fatalf("no unresponsive event: %v", evs.kinds())
		}
		// pid has the toolset's timeout: a restart under load fits in it.
		wantSuccess(t, call(t, ts, "pid", `{}`))
		if ts.Restarts() != 1 {
			t.Fatalf("restarts = %d", ts.Restarts())
		}
	})
}

// A hung worker (the server still answers liveness checks and other calls): single
// timeouts keep the back-end; three in a row restart it.
func TestFaultThreadedHang(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		// The liveness check after a timeout gets as long as the call had, up
		// to the body layer's cap of a second: a second, so a live back-end
		// on a loaded machine has all the time the product gives it (more
		// would only make each hung call longer) and only the count of hung
		// calls kills it.
		spec.Tools["base.probe"] = schema.ToolContract{Timeout: schema.Duration(time.Second)}
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		env := call(t, ts, "probe", `{"fault":"hang"}`)
		wantFailure(t, env, "probe timed out")
		if strings.Contains(env.Reason, "killed") {
			t.Fatalf("one hung call killed the back-end: %s", env.Reason)
		}
		wantSuccess(t, call(t, ts, "probe", `{}`)) // other workers still serve; the count restarts
		wantFailure(t, call(t, ts, "probe", `{"fault":"hang"}`), "timed out")
		wantFailure(t, call(t, ts, "probe", `{"fault":"hang"}`), "timed out")
		wantFailure(t, call(t, ts, "probe", `{"fault":"hang"}`), "its last 3 calls all timed out", "killed")
		wantSuccess(t, call(t, ts, "pid", `{}`)) // the toolset's timeout: room for the restart
		if ts.Restarts() != 1 || len(evs.texts(body.SafetyUnresponsive)) != 1 {
			t.Fatalf("restarts %d, events %v", ts.Restarts(), evs.kinds())
		}
	})
}

// A tool whose name carries escape codes is left out; escape codes,
// injection text and an error result come back as data in the envelope.
func TestFaultHostileContent(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		ts := startFault(t, tr, faultSpec(tr, self, dir, "base"), "base", body.Shared{})
		tools, err := ts.Tools(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		offerable := regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`) // a name every provider accepts
		for _, tl := range tools {
			if !offerable.MatchString(tl.Def().Name) {
				t.Fatalf("tool %q offered", tl.Def().Name)
			}
		}
		if env := call(t, ts, "probe", `{"fault":"escape"}`); !env.Success || !strings.Contains(fmt.Sprint(env.Value), "pwned") {
			t.Fatalf("escape: %+v", env)
		}
		if env := call(t, ts, "probe", `{"fault":"inject"}`); !env.Success || !strings.Contains(fmt.Sprint(env.Value), "SYSTEM OVERRIDE") {
			t.Fatalf("inject: %+v", env)
		}
		wantFailure(t, call(t, ts, "probe", `{"fault":"error"}`), "joint 3 fault")
		wantSuccess(t, call(t, ts, "probe", `{}`))
	})
}

// A motion whose back-end freezes mid-motion: the stop path kills it after
// stop_grace, the motion never overlaps the next, and the body is uncertain
// until an observation.
func TestFaultFrozenMidMotion(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		var evs events
		ts := startFault(t, tr, faultSpec(tr, self, dir, "base"), "base", body.Shared{OnSafety: evs.add})
		wantFailure(t, call(t, ts, "move_base", `{"ms":5,"fault":"freeze"}`), "timed out")
		waitMotionEnd(t, ts)
		wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain")
		endAfterKill(t, tr, ts, &evs)
		wantSuccess(t, call(t, ts, "observe", `{}`))
		wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
		if _, ok := evs.find(body.SafetyKilled); !ok {
			t.Fatalf("no kill event: %v", evs.kinds())
		}
		noOverlaps(t, dir)
	})
}

// A timeout is said once: the guard's words, then the back-end's own
// without its repeat of "timed out" (issue 15, finding 7).
func TestTimeoutSaidOnce(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		spec.Tools["base.probe"] = schema.ToolContract{Timeout: schema.Duration(60 * time.Millisecond)}
		ts := startFault(t, tr, spec, "base", body.Shared{})
		for _, c := range []struct{ tool, args string }{{"move_base", `{"ms":5000}`}, {"probe", `{"fault":"hang"}`}} {
			env := call(t, ts, c.tool, c.args)
			if n := strings.Count(env.Reason, "timed out"); n != 1 {
				t.Fatalf("%s: %q says it timed out %d times", c.tool, env.Reason, n)
			}
			waitMotionEnd(t, ts)                     // the motion's back-end is killed after stop_grace
			wantSuccess(t, call(t, ts, "pid", `{}`)) // restarted within the toolset's timeout
		}
	})
}

// A back-end slower to start than a tool's timeout: the call that finds it
// down says it is restarting and the restart goes on under start_timeout,
// so a later call uses it; the short timeout does not fail the restart and
// burn the budget (3 restarts here) until the tools are gone for good.
func TestFaultSlowRestartOutlivesTheCall(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		probe := testtime.Scale(100 * time.Millisecond)
		spec.Tools["base.probe"] = schema.ToolContract{Timeout: schema.Duration(probe)}
		cfg := spec.Toolsets["base"]
		cfg.Restart.MaxRestarts = 3
		spec.Toolsets["base"] = cfg
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		// crash has the toolset's timeout: the crash, not the probe's
		// timeout, ends it, however loaded the machine.
		wantFailure(t, call(t, ts, "crash", `{}`), "crashed")
		setStart(t, dir, fmt.Sprintf("slow %d", (5*probe).Milliseconds())) // longer than two calls' timeouts
		for range 2 {
			wantFailure(t, call(t, ts, "probe", `{}`), "restarting after a crash; try again")
		}
		wantSuccess(t, call(t, ts, "pid", `{}`)) // waits for the restart under way
		wantSuccess(t, call(t, ts, "probe", `{}`))
		if ts.Restarts() != 1 || len(evs.texts(body.SafetyRestartFailed)) != 0 {
			t.Fatalf("restarts %d, events %v", ts.Restarts(), evs.kinds())
		}
	})
}
