package bodysuite_test

import (
	"context"
	"encoding/json"
	"github.com/thea-harness/thea/cmd/thea/cli"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The fault suite of the body layer. Each test drives a real fault server —
// a back-end that misbehaves on request and records every motion in a
// directory (the contract is faultserver's: its tools move_base, crash,
// probe, observe, pid, the files of that directory) — through one transport
// kind, for every transport in the table, and checks what the body layer
// guarantees: one motion at a time across timeouts, cancellations and
// restarts, the stop path on the record, late replies, uncertainty until a
// fresh observation, the cross-process body lock.
//
// Every test here runs on every row. What stays MCP-only lives beside the
// MCP kind in package toolsets, because it is about stdio itself: garbage
// lines and escape codes on a back-end's stdout, a stdout that closes, a
// 20 MB result over the pipe. A row skips a test only for a fact of its
// transport, said in the skip (the rosbridge kind starts no process, so
// kill -9 of the harness has no back-end of its own to end).

// transport is one row of the suite: a kind under the body layer and its
// fault server.
type transport struct {
	name string
	kind func() engine.ToolsetKind
	// toolset is a toolset whose back-end is this transport's fault server
	// recording into dir; self is this test binary.
	toolset func(self, dir string) schema.Toolset
	// stop declares the kind's stop path on ts: "ok", one that ends every
	// motion, or "hang", one that never answers; timeout bounds it.
	stop func(ts *schema.Toolset, mode string, timeout time.Duration)
	// yaml is the same toolset, its stop path per stop ("" none), as the
	// YAML lines of a spec's toolset (indented four spaces), and the names
	// of the tools a session offers none of (their contracts hidden).
	yaml func(self, dir, stop, stopTimeout string) (section string, hidden []string)
	// stopRecord is how the record names the stop path of a mode: its
	// via and tool (runlog.StopCall) and its name in sentences.
	stopRecord func(mode string) (via, tool, name string)
	// stopFailed is what the record's outcome of a failed stop path of
	// mode says.
	stopFailed func(mode string) string
	// stopped reports whether a motion's reply says the stop path ended it.
	stopped func(runlog.Envelope) bool
	// killSays is how a timed-out motion's reason names the kill path of a
	// toolset with no working stop.
	killSays string
	// observeFaults are the observe modes (faultserver.ObserveFile) of this
	// transport's fault server and what the failed observation of each
	// says; rawMode's raw text must be in its failure event exactly once.
	observeFaults map[string][]string
	// observeOrder is the order the modes are tried in, when it matters
	// (default: sorted).
	observeOrder []string
	rawMode      string
	rawText      string
	// linger makes ts's fault server outlive its closed connection, like a
	// driver stuck in a blocking call.
	linger func(ts *schema.Toolset)
	// serve, when this test binary's environment asks for this
	// transport's fault server, serves it and returns its exit status.
	serve func() (int, bool)
	// spawns: the toolset starts its back-end as its own subprocess, which
	// must end when the harness is killed.
	spawns bool
	// lastWords: a crash's reason carries the fault server's last words
	// ("crashing mid-call", from its stderr).
	lastWords bool
	// stopEnds: the toolset's own stop path (declared by default, as an
	// arm's dashboard stop) ends a motion its back-end ignores the cancel
	// of, so a timed-out motion is stopped, not killed.
	stopEnds bool
}

// transports is the suite's table: a transport adds one row.
func transports() []transport {
	return []transport{mcpTransport(), rosbridgeTransport(), rosbridgeArmTransport(), bareTransport()}
}

// eachTransport runs test once per transport, as a subtest.
func eachTransport(t *testing.T, test func(t *testing.T, tr transport)) {
	for _, tr := range transports() {
		t.Run(tr.name, func(t *testing.T) { test(t, tr) })
	}
}

func TestMain(m *testing.M) {
	for _, tr := range transports() {
		if code, ok := tr.serve(); ok {
			os.Exit(code)
		}
	}
	if mode := os.Getenv(harnessEnv); mode != "" {
		os.Exit(harnessMain(mode))
	}
	if os.Getenv(theaEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// faultSpec is a spec whose toolsets each run tr's fault server recording
// into dir; their move_base (a short timeout, scaled so a 1ms motion still
// answers within it on a loaded machine) and crash are physical.
func faultSpec(tr transport, self, dir string, toolsets ...string) *schema.Spec {
	spec := &schema.Spec{
		Dir:         dir,
		Toolsets:    map[string]schema.Toolset{},
		Tools:       map[string]schema.ToolContract{},
		Observation: schema.ObservationSource{Tool: toolsets[0] + ".observe"},
	}
	for _, name := range toolsets {
		ts := tr.toolset(self, dir)
		ts.Timeout = schema.Duration(testtime.Scale(10 * time.Second))
		ts.Restart = schema.Restart{MaxRestarts: 10, Backoff: schema.Duration(time.Millisecond)}
		ts.StopGrace = schema.Duration(testtime.Scale(40 * time.Millisecond))
		spec.Toolsets[name] = withSchemaDefaults(ts)
		spec.Tools[name+".move_base"] = schema.ToolContract{Physical: true, Timeout: schema.Duration(testtime.Scale(50 * time.Millisecond))}
		spec.Tools[name+".crash"] = schema.ToolContract{Physical: true}
	}
	return spec
}

// withStop declares tr's stop path on spec's toolset name.
func withStop(tr transport, spec *schema.Spec, name, mode string, timeout time.Duration) {
	ts := spec.Toolsets[name]
	tr.stop(&ts, mode, timeout)
	spec.Toolsets[name] = ts
}

// configFor is the ToolsetConfig the engine would build for spec's toolset.
func configFor(spec *schema.Spec, name string, stream engine.TaskStream) engine.ToolsetConfig {
	return engine.ToolsetConfig{Name: name, Section: withSchemaDefaults(spec.Toolsets[name]), Dir: spec.Dir,
		Observation: spec.Observation.Tool, Stream: stream, Body: spec.Embodiment, Uncertainty: spec.Safety.Uncertainty,
		Contract: func(tool string) schema.ToolContract { return spec.ContractFor(name, tool) }}
}

// started is a toolset as the engine offers it: the body layer's toolset
// (its state: restarts, body, uncertainty) with its tools guarded.
type started struct {
	*body.Toolset
	g *engine.Guarded
}

func (s *started) Tools(ctx context.Context) ([]engine.Tool, error) { return s.g.Tools(ctx) }

// start starts spec's toolset name through tr's kind, as the engine does:
// its transport under a body layer over deps (toolsets given deps that
// share Bodies and Locks share a body's motion state, as a host's do).
func start(ctx context.Context, tr transport, spec *schema.Spec, name string, deps body.Shared) (*started, error) {
	g, err := engine.StartToolset(ctx, tr.kind(), configFor(spec, name, nil), body.NewLayer(deps), deps.Logger)
	if err != nil {
		return nil, err
	}
	bt, ok := g.Toolset.(*body.Toolset)
	if !ok {
		_ = g.Close()
		return nil, errNotBody{tr.name}
	}
	return &started{Toolset: bt, g: g}, nil
}

type errNotBody struct{ kind string }

func (e errNotBody) Error() string { return e.kind + " toolsets are not built on the body layer" }

func startFault(t testing.TB, tr transport, spec *schema.Spec, name string, deps body.Shared) *started {
	t.Helper()
	ts, err := start(t.Context(), tr, spec, name, deps)
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
	dir = t.TempDir()
	reapFaultServers(t, dir)
	return self, dir
}

func toolByName(t testing.TB, ts engine.Toolset, name string) engine.Tool {
	t.Helper()
	tools, err := ts.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Def().Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

func call(t *testing.T, ts engine.Toolset, name, args string) runlog.Envelope {
	t.Helper()
	return toolByName(t, ts, name).Call(callgate.Through(t.Context()), json.RawMessage(args))
}

// callAfterRestart calls a tool of a toolset whose back-end was just killed:
// a restart is bounded by start_timeout, not by the call, so on a loaded
// machine the first calls may be told "restarting ...; try again" while it
// goes on. It tries again, as the model is told to, until another answer.
func callAfterRestart(t *testing.T, ts engine.Toolset, name, args string) runlog.Envelope {
	t.Helper()
	var env runlog.Envelope
	testtime.Wait(t, name+" answering after the back-end's restart", func() bool {
		env = call(t, ts, name, args)
		return env.Success || !strings.Contains(env.Reason, "is restarting after a crash; try again")
	})
	return env
}

func wantFailure(t *testing.T, env runlog.Envelope, contains ...string) {
	t.Helper()
	if env.Success {
		t.Fatalf("want failure, got success %v", env.Value)
	}
	for _, c := range contains {
		if !strings.Contains(env.Reason, c) {
			t.Fatalf("reason %q does not contain %q", env.Reason, c)
		}
	}
}

func wantSuccess(t *testing.T, env runlog.Envelope) {
	t.Helper()
	if !env.Success {
		t.Fatalf("want success, got failure %q", env.Reason)
	}
}

// waitMotionEnd waits until no motion of ts's body is in flight; the bound
// only keeps a broken test from hanging.
func waitMotionEnd(t *testing.T, ts *started) {
	t.Helper()
	testtime.Wait(t, "the motion in flight ending", func() bool { return len(ts.Body().InFlight()) == 0 })
}

// events collects SafetyEvents.
type events struct {
	mu  sync.Mutex
	evs []engine.SafetyEvent
}

func (e *events) add(ev engine.SafetyEvent) {
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

func (e *events) find(kind string) (engine.SafetyEvent, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.evs {
		if ev.Kind == kind {
			return ev, true
		}
	}
	return engine.SafetyEvent{}, false
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

// all are the events of kind.
func (e *events) all(kind string) []engine.SafetyEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []engine.SafetyEvent
	for _, ev := range e.evs {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// texts are the texts of the events of kind.
func (e *events) texts(kind string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		if ev.Kind == kind {
			out = append(out, ev.Text)
		}
	}
	return out
}

// noOverlaps fails when the fault server ever saw two motions at once.
func noOverlaps(t *testing.T, dir string) {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(dir, faultserver.OverlapFile)); err == nil {
		t.Fatalf("two motions were active at once on the server side:\n%s", b)
	}
}

func logLines(t testing.TB, dir, prefix string) int {
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

// waitLog waits until the fault server logged n lines starting with prefix.
func waitLog(t *testing.T, dir, prefix string, n int) {
	t.Helper()
	testtime.Wait(t, "the fault server's "+prefix+" log lines", func() bool { return logLines(t, dir, prefix) >= n })
}

func setObserve(t *testing.T, dir, mode string) {
	t.Helper()
	// Written aside and renamed into place: a fault server reading the file
	// between WriteFile's truncation and its write would see no mode and
	// publish a good reading (a rosbridge fake does so several times a
	// second).
	path := filepath.Join(dir, faultserver.ObserveFile)
	if err := os.WriteFile(path+".new", []byte(mode), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

func setStart(t *testing.T, dir, mode string) {
	t.Helper()
	path := filepath.Join(dir, faultserver.StartFile)
	if mode == "" {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(path, []byte(mode), 0o644); err != nil {
		t.Fatal(err)
	}
}

// release ends every gated motion of the fault servers recording into dir.
func release(t testing.TB, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, faultserver.GateFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitFile waits for a file a back-end writes; the bound only keeps a
// broken test from hanging.
func waitFile(t *testing.T, path string) {
	t.Helper()
	testtime.Wait(t, path+" appearing", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// withSchemaDefaults gives a section built in Go the schema's defaults for
// the body layer's fields it leaves zero, as schema.Load fills them: the
// body layer itself keeps no default of its own.
func withSchemaDefaults(ts schema.Toolset) schema.Toolset {
	d, err := schema.ToolsetDefaults(ts.Kind)
	if err != nil {
		panic(err)
	}
	if ts.StartTimeout == 0 {
		ts.StartTimeout = d.StartTimeout
	}
	if ts.StopGrace == 0 {
		ts.StopGrace = d.StopGrace
	}
	if ts.MaxResultBytes == 0 {
		ts.MaxResultBytes = d.MaxResultBytes
	}
	return ts
}
