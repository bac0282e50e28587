package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/body"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// faultEnv makes the test binary serve the fault server; harnessEnv makes it
// a helper harness process (see harnessMain) for the cross-process tests.
const (
	faultEnv   = "THEA_TOOLSETS_FAULTSERVER"
	harnessEnv = "THEA_TOOLSETS_HARNESS"
	// harnessDirEnv is the fault directory a helper harness uses; it writes
	// its results there too.
	harnessDirEnv  = "THEA_TOOLSETS_HARNESS_DIR"
	harnessLockEnv = "THEA_TOOLSETS_HARNESS_LOCK" // the body lock's directory
	// lingerEnv makes the fault server outlive its closed stdin.
	lingerEnv = "THEA_TOOLSETS_FAULT_LINGER"
)

// faultSpec is a spec whose toolsets each run a fault server recording into
// dir; their move_base (20ms timeout) and crash are physical.
func faultSpec(self, dir string, toolsets ...string) *schema.Spec {
	spec := &schema.Spec{
		Dir:         dir,
		Toolsets:    map[string]schema.Toolset{},
		Tools:       map[string]schema.ToolContract{},
		Observation: schema.ObservationSource{Tool: toolsets[0] + ".observe"},
	}
	for _, name := range toolsets {
		spec.Toolsets[name] = schema.Toolset{
			Kind:      "mcp",
			Command:   []string{self, "-test.run=^$"},
			Env:       map[string]string{faultEnv: "1", faultserver.DirEnv: dir},
			Timeout:   schema.Duration(testtime.Scale(10 * time.Second)),
			Restart:   schema.Restart{MaxRestarts: 10, Backoff: schema.Duration(time.Millisecond)},
			StopGrace: schema.Duration(40 * time.Millisecond),
		}
		spec.Tools[name+".move_base"] = schema.ToolContract{Physical: true, Timeout: schema.Duration(20 * time.Millisecond)}
		spec.Tools[name+".crash"] = schema.ToolContract{Physical: true}
	}
	return spec
}

// events collects SafetyEvents.
type events struct {
	mu  sync.Mutex
	evs []body.SafetyEvent
}

func (e *events) add(ev body.SafetyEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

func (e *events) kinds() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		out = append(out, ev.Kind)
	}
	return out
}

func (e *events) find(kind string) (body.SafetyEvent, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.evs {
		if ev.Kind == kind {
			return ev, true
		}
	}
	return body.SafetyEvent{}, false
}

// count counts events of kind whose envelope's reason contains text.
func (e *events) count(kind, text string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, ev := range e.evs {
		if ev.Kind == kind && strings.Contains(ev.Envelope.Reason, text) {
			n++
		}
	}
	return n
}

func startFault(t testing.TB, spec *schema.Spec, name string, deps body.Deps) *started {
	t.Helper()
	ts, err := startMCP(t.Context(), configFor(spec, name, nil), deps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	return ts
}

func newFaultDir(t testing.TB) (self, dir string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self, t.TempDir()
}

// noOverlaps fails when the fault server ever saw two motions at once.
func noOverlaps(t *testing.T, dir string) {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(dir, faultserver.OverlapFile)); err == nil {
		t.Fatalf("two motions were active at once on the server side:\n%s", b)
	}
}

func logLines(t *testing.T, dir, prefix string) int {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, faultserver.LogFile))
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func setObserve(t *testing.T, dir, mode string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, faultserver.ObserveFile), []byte(mode), 0o644); err != nil {
		t.Fatal(err)
	}
}

// harnessMain is a helper harness process. Modes:
//   - "hold": start the back-end, print its pid to <dir>/backend.pid, block;
//   - "drive": run five 15ms motions, then exit;
//   - "long": run one motion that lasts until the test calls release, then exit.
func harnessMain(mode string) int {
	dir := os.Getenv(harnessDirEnv)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	spec := faultSpec(self, dir, "base")
	spec.Embodiment = schema.Embodiment{Name: "shared-body", Lock: schema.BodyLock{Dir: os.Getenv(harnessLockEnv), Mode: "wait"}}
	spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
	if mode == "hold" {
		spec.Toolsets["base"].Env[lingerEnv] = "1"
	}
	ctx := context.Background()
	ts, err := startMCP(ctx, configFor(spec, "base", nil), body.Deps{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ts.Close()
	move := func(args string) engine.Envelope {
		tools, _ := ts.Tools(ctx)
		for _, tl := range tools {
			if tl.Def().Name == "move_base" {
				return tl.Call(ctx, json.RawMessage(args))
			}
		}
		return engine.Failure("no move_base")
	}
	switch mode {
	case "hold":
		tools, _ := ts.Tools(ctx)
		for _, tl := range tools {
			if tl.Def().Name == "pid" {
				env := tl.Call(ctx, json.RawMessage(`{}`))
				pid := fmt.Sprint(env.Value["pid"])
				if err := os.WriteFile(filepath.Join(dir, "backend.pid"), []byte(pid), 0o644); err != nil {
					fmt.Fprintln(os.Stderr, err)
					return 2
				}
			}
		}
		select {} // until killed
	case "long":
		if env := move(`{"ms":0,"fault":"gate"}`); !env.Success {
			fmt.Fprintln(os.Stderr, "move failed:", env.Reason)
			return 1
		}
		return 0
	case "drive":
		for range 5 {
			if env := move(`{"ms":15}`); !env.Success {
				fmt.Fprintln(os.Stderr, "move failed:", env.Reason)
				return 1
			}
		}
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// release ends every gated motion of the fault servers recording into dir.
func release(t testing.TB, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, faultserver.GateFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}
