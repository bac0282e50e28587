package chaos

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/openai"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/stages"
	"github.com/thea-harness/thea/toolsets"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// serveEnv makes the test binary serve the fault server: the episodes start
// it as their back-end, a real subprocess.
const serveEnv = "THEA_CHAOS_FAULTSERVER"

// Secrets of every episode: the model's API key and a value the fault server
// echoes (its secret fault), declared in run_log.secret_env.
const (
	keyEnv = "THEA_CHAOS_KEY"
	apiKey = "sk-chaos-key-5e2b9c"
	secret = "chaos-secret-value-91d4"
)

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		os.Exit(faultserver.Main(os.Getenv(faultserver.DirEnv)))
	}
	os.Exit(m.Run())
}

// specYAML is an episode's spec; %[1]s is the model server's URL, %[2]s
// this binary, %[3]s the fault directory, %[4]s the stop section, %[5]s the
// model's timeout.
const specYAML = `name: chaos
model:
  provider: openai
  name: chaos-model
  base_url: %[1]s/v1
  api_key_env: THEA_CHAOS_KEY
  timeout: %[5]s
  retries: 1
  max_tokens: 256
embodiment:
  name: chaos-base
  summary: A mobile base whose driver misbehaves on purpose.
  frames:
    - {name: map}
    - {name: base, parent: map}
  limits: {min_clearance_m: 0.05, safety_margin_m: 0.05, max_translation_m: 1.0}
  lock: {dir: %[3]q}
observation:
  tool: observe
toolsets:
  base:
    kind: mcp
    command: [%[2]q, "-test.run=^$"]
    env: {THEA_CHAOS_FAULTSERVER: "1", THEA_FAULT_DIR: %[3]q}
    env_passthrough: [THEA_FAULT_SECRET]
    tools: [observe, probe, move_base, cancel_motion]
%[4]s    timeout: 5s
    start_timeout: 10s
    stop_grace: 100ms
    restart: {max_restarts: 1000, backoff: 1ms}
tools:
  observe: {hidden: true, timeout: 300ms}
  cancel_motion: {hidden: true}
  move_base: {physical: true, timeout: 80ms}
  probe: {timeout: 150ms}
run_log:
  enabled: true
  dir: runs
  secret_env: [THEA_FAULT_SECRET]
user:
  channel: none
memory:
  consolidation: {enabled: false}
scene_graph:
  enabled: false
`

// catalog is what an episode needs; the OpenAI adapter waits for
// nothing between retries, so a schedule's time is the faults' own.
func catalog(logger *slog.Logger, seed uint64) (*engine.Components, error) {
	c := engine.NewComponents()
	c.SetBody(body.NewLayer(body.Shared{Logger: logger}))
	if err := c.Add(stages.Components()...); err != nil {
		return nil, fmt.Errorf("stages: %w", err)
	}
	noSleep := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	if err := c.Add(toolsets.BuiltinKind(), toolsets.MCPKind(),
		channels.NoneChannel()); err != nil {
		return nil, fmt.Errorf("components: %w", err)
	}
	// OpenAI's wire, no waits between retries.
	if err := c.Add(openai.ComponentsWith(call.Options{Sleep: noSleep, Jitter: call.SeededJitter(seed)})...); err != nil {
		return nil, fmt.Errorf("components: %w", err)
	}
	if err := c.Add(policies.Components()...); err != nil {
		return nil, fmt.Errorf("hook actions: %w", err)
	}
	return c, nil
}

// episode is one session under a schedule, with every sink it writes to.
type episode struct {
	sched  Schedule
	dir    string // the spec's directory: runs/ and the fault directory
	faults string
	h      *engine.Harness
	models *ModelServer
	rec    *Recorder
	trace  *bytes.Buffer
	logs   *lockedBuffer
	// reports are the tasks' reports, the clean last task's included.
	reports []runlog.Report
	srv     *httptest.Server
}

// release stops the model server and, when drop is set, removes the
// episode's files (a failed episode's stay for a look).
func (e *episode) release(drop bool) error {
	e.srv.Close()
	if !drop {
		return nil
	}
	if err := os.RemoveAll(e.dir); err != nil {
		return fmt.Errorf("removing %s: %w", e.dir, err)
	}
	return nil
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// traceSink prints each task's live trace into one buffer.
type traceSink struct {
	mu sync.Mutex
	w  *trace.Writer
}

func (s *traceSink) Write(ev runlog.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(ev)
}

func (s *traceSink) Close() error { return nil }

// newEpisode starts a session for sched in a directory of its own under
// base; release frees what it holds.
func newEpisode(ctx context.Context, base string, sched Schedule) (_ *episode, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("locating the test binary: %w", err)
	}
	dir, err := os.MkdirTemp(base, fmt.Sprintf("seed%d-", sched.Seed))
	if err != nil {
		return nil, fmt.Errorf("episode dir: %w", err)
	}
	e := &episode{sched: sched, dir: dir, faults: filepath.Join(dir, "faults"), models: NewModelServer(sched),
		rec: NewRecorder(), trace: &bytes.Buffer{}, logs: &lockedBuffer{}}
	if err := os.Mkdir(e.faults, 0o700); err != nil {
		return nil, fmt.Errorf("fault dir: %w", err)
	}
	srv := httptest.NewServer(e.models)
	e.srv = srv
	defer func() {
		if err != nil {
			srv.Close()
		}
	}()
	stop := ""
	if sched.StopTool {
		stop = "    stop: {tool: cancel_motion, timeout: 100ms}\n"
	}
	specPath := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(specPath, fmt.Appendf(nil, specYAML, srv.URL, self, e.faults, stop, modelTimeout()), 0o600); err != nil {
		return nil, fmt.Errorf("writing the spec: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cat, err := catalog(logger, sched.Seed)
	if err != nil {
		return nil, err
	}
	spec, diags := schema.Load([]string{specPath}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: cat.Descriptors()})
	if spec == nil {
		return nil, fmt.Errorf("the chaos spec: %v", diags)
	}
	ts := &traceSink{w: trace.New(e.trace, true)}
	// This build's session wiring over the chaos run's own catalog (an
	// OpenAI provider that never sleeps between retries).
	opts, err := components.Session(components.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	opts.Components = cat
	opts.Sinks = []engine.SinkFactory{e.rec.Factory, func(engine.TaskInfo) (engine.Sink, error) { return ts, nil }}
	e.h, err = engine.New(ctx, spec, opts)
	if err != nil {
		return nil, fmt.Errorf("starting the session: %w", err)
	}
	return e, nil
}

// run runs every task of the schedule, then a last clean task, and checks
// the invariants; the error names the first one broken.
func (e *episode) run(ctx context.Context) (err error) {
	defer func() {
		if cerr := e.h.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the session: %w", cerr)
		}
	}()
	// The last task is clean: the session must still do work.
	e.models.sched.Tasks = append(e.models.sched.Tasks, Task{Turns: []Turn{{Calls: []Call{{Tool: "probe"}}}, {}}})
	n := len(e.models.sched.Tasks)
	for i := range n {
		mode := filepath.Join(e.faults, faultserver.ObserveFile)
		if err := os.WriteFile(mode, []byte(e.models.sched.Tasks[i].Observe), 0o600); err != nil {
			return fmt.Errorf("observe mode: %w", err)
		}
		rep, err := e.h.Run(ctx, fmt.Sprintf("%s%d: do as the schedule says.", Marker, i+1))
		e.reports = append(e.reports, rep)
		if err != nil && rep.Reason == "" {
			return fmt.Errorf("task %d did not run: %w", i+1, err)
		}
		if i == n-1 && rep.Reason != runlog.DoneFinal {
			return fmt.Errorf("the session is not usable after the faults: the clean task ended %s: %s", rep.Reason, rep.Text)
		}
	}
	return e.check(ctx, n)
}

func (e *episode) check(ctx context.Context, tasks int) error {
	if errs := e.models.Errors(); len(errs) > 0 {
		return fmt.Errorf("model server: %s", strings.Join(errs, "; "))
	}
	if b, err := os.ReadFile(filepath.Join(e.faults, faultserver.OverlapFile)); err == nil {
		return fmt.Errorf("two motions were active at once:\n%s", b)
	}
	if got := len(e.rec.Kinds()); got != tasks {
		return fmt.Errorf("%d tasks recorded, want %d", got, tasks)
	}
	if err := CheckRunLog(ctx, filepath.Join(e.dir, "runs"), e.rec); err != nil {
		return err
	}
	if err := CheckTerminalSafe("the trace", e.trace.String()); err != nil {
		return err
	}
	return CheckNoSecret(filepath.Join(e.dir, "runs"), []string{secret, apiKey},
		map[string]string{"the trace": e.trace.String(), "the log": e.logs.String()})
}

var _ io.Writer = (*lockedBuffer)(nil)

// modelTimeout is the model's timeout: long enough that a clean request
// answers on a loaded machine under the race detector, short because every
// stalled turn costs one.
func modelTimeout() string {
	return testtime.Scale(250 * time.Millisecond).String()
}
