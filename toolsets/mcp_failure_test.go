package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

// waitFile waits for a file the server writes; the bound only keeps a broken
// test from hanging, it is not what is tested.
func waitFile(t *testing.T, path string) {
	t.Helper()
	testtime.Wait(t, path+" appearing", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// A motion killed without a reply never reported its end: an observation
// does not clear the body, the operator does.
func TestMCPTimeoutKillKeepsUncertainUntilClear(t *testing.T) {
	f := newFixture(t)
	f.spec.Tools["move"] = schema.ToolContract{Physical: true, Timeout: schema.Duration(testtime.Scale(50 * time.Millisecond))}
	ts := f.start(t)

	wantFailure(t, call(t, ts, "move", `{"ms":60000}`), "move timed out", "the motion may still be running")
	// The motion holds the body until its back-end is killed (no stop tool).
	wantFailure(t, call(t, ts, "move", `{"ms":1}`), "a motion is still running", "move on the sim back-end")
	waitMotionEnd(t, ts)
	wantFailure(t, call(t, ts, "move", `{"ms":1}`), "uncertain", "the previous motion move timed out on the sim back-end", "never reported an end")
	// Non-physical tools still run; the client survived the timeout.
	wantSuccess(t, call(t, ts, "echo", `{"text":"x"}`))
	wantSuccess(t, call(t, ts, "observe", `{}`))
	wantFailure(t, call(t, ts, "move", `{"ms":1}`), "an observation does not clear it")
	ts.ClearUncertain()
	wantSuccess(t, call(t, ts, "move", `{"ms":1}`))
}

func TestMCPUncertainOperatorClearAndContinue(t *testing.T) {
	f := newFixture(t)
	f.spec.Tools["move"] = schema.ToolContract{Physical: true, Timeout: schema.Duration(testtime.Scale(50 * time.Millisecond))}
	ts := f.start(t)
	wantFailure(t, call(t, ts, "move", `{"ms":60000}`), "timed out")
	waitMotionEnd(t, ts)
	wantFailure(t, call(t, ts, "move", `{"ms":1}`), "uncertain")
	ts.ClearUncertain()
	f.spec.Tools["move"] = schema.ToolContract{Physical: true}
	if ts.Uncertain() != "" {
		t.Fatal("still uncertain after the operator's clear")
	}

	cfg := f.spec.Toolsets["sim"]
	cfg.OnUncertain = "continue"
	f.spec.Toolsets["sim"] = cfg
	f.spec.Tools["move"] = schema.ToolContract{Physical: true, Timeout: schema.Duration(testtime.Scale(50 * time.Millisecond))}
	ts2 := f.start(t)
	wantFailure(t, call(t, ts2, "move", `{"ms":60000}`), "timed out")
	waitMotionEnd(t, ts2)
	if ts2.Uncertain() != "" {
		t.Fatalf("on_uncertain continue still refuses: %s", ts2.Uncertain())
	}
}

// waitMotionEnd waits until no motion of ts's body is in flight; the bound
// only keeps a broken test from hanging.
func waitMotionEnd(t *testing.T, ts *started) {
	t.Helper()
	testtime.Wait(t, "the motion in flight ending", func() bool { return len(ts.Body().InFlight()) == 0 })
}

func TestMCPCancelKillsBackendWithoutStop(t *testing.T) {
	f := newFixture(t)
	ts := f.start(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan string, 1)
	go func() {
		env := toolByName(t, ts, "move").Call(callgate.Through(ctx), json.RawMessage(`{"ms":60000}`))
		done <- env.Reason
	}()
	waitFile(t, f.started)
	cancel()
	if r := <-done; !strings.Contains(r, "cancelled") {
		t.Fatalf("reason = %q", r)
	}
	// No stop tool: the back-end is killed after stop_grace.
	waitMotionEnd(t, ts)
	if ts.Restarts() != 0 || ts.Uncertain() == "" {
		t.Fatal("a cancelled physical call left the state certain")
	}
}

func TestMCPCrashThenRestart(t *testing.T) {
	f := newFixture(t)
	f.spec.Tools["crash"] = schema.ToolContract{Physical: true}
	ts := f.start(t)
	wantFailure(t, call(t, ts, "crash", `{}`), "the sim back-end crashed during crash", "crashing on purpose")
	// A crash during a physical tool makes the state uncertain.
	wantFailure(t, call(t, ts, "move", `{"ms":1}`), "uncertain", "crash crashed")
	wantSuccess(t, call(t, ts, "echo", `{"text":"back"}`))
	if ts.Restarts() != 1 {
		t.Fatalf("restarts = %d", ts.Restarts())
	}
}

func TestMCPRestartBudget(t *testing.T) {
	f := newFixture(t)
	cfg := f.spec.Toolsets["sim"]
	cfg.Restart.MaxRestarts = 1
	f.spec.Toolsets["sim"] = cfg
	ts := f.start(t)
	wantFailure(t, call(t, ts, "crash", `{}`), "crashed")
	wantSuccess(t, call(t, ts, "echo", `{"text":"1"}`))
	wantFailure(t, call(t, ts, "crash", `{}`), "crashed")
	wantFailure(t, call(t, ts, "echo", `{"text":"2"}`), "restarted 1 times, the most allowed")
	wantFailure(t, call(t, ts, "echo", `{"text":"3"}`), "the most allowed")
}

// gone reports whether pid no longer runs (a zombie counts as gone).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] == "Z"
}

func TestMCPCloseEndsProcessGroup(t *testing.T) {
	ts := newFixture(t).start(t)
	env := call(t, ts, "spawn", `{}`)
	wantSuccess(t, env)
	pid, child := int(env.Value["pid"].(float64)), int(env.Value["child"].(float64))
	if gone(pid) || gone(child) {
		t.Fatal("processes not running before Close")
	}
	if err := ts.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ts.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for _, p := range []int{pid, child} {
		testtime.Wait(t, fmt.Sprintf("process %d ending after Close", p), func() bool { return gone(p) })
	}
	wantFailure(t, call(t, ts, "echo", `{"text":"x"}`), "closed")
}

func TestMCPStreamableHTTP(t *testing.T) {
	var sawHeader atomic.Bool
	h := server.NewStreamableHTTPServer(testserver.New())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Robot") == "r2" {
			sawHeader.Store(true)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	spec := &schema.Spec{Dir: t.TempDir(), Toolsets: map[string]schema.Toolset{"arm": {
		Kind: "mcp", Config: MCPConfig{URL: srv.URL + "/mcp", Headers: map[string]string{"X-Robot": "r2"}},
		Tools: []string{"echo", "observe"},
	}}}
	ts, err := startMCP(t.Context(), configFor(spec, "arm", nil), body.Shared{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	env := call(t, ts, "echo", `{"text":"over http"}`)
	wantSuccess(t, env)
	if env.Value["echo"] != "over http" || !sawHeader.Load() {
		t.Fatalf("echo = %+v, header seen %v", env, sawHeader.Load())
	}
	wantFailure(t, call(t, ts, "echo", `{}`), "missing required argument")
}

func TestPhysicalLocks(t *testing.T) {
	l := body.NewPhysicalLocks()
	unlock, err := l.Lock(t.Context(), "cmd:sim")
	if err != nil {
		t.Fatal(err)
	}
	// Another back-end is independent.
	other, err := l.Lock(t.Context(), "cmd:arm")
	if err != nil {
		t.Fatal(err)
	}
	other()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.Lock(ctx, "cmd:sim"); err == nil {
		t.Fatal("second holder of the same back-end's lock")
	}
	unlock()
	again, err := l.Lock(t.Context(), "cmd:sim")
	if err != nil {
		t.Fatal(err)
	}
	again()
}
