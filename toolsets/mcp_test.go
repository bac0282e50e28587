package toolsets

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

type fixture struct {
	spec    *schema.Spec
	marker  string // written by the server when a move is cancelled
	started string // written by the server when a move starts
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := &fixture{marker: filepath.Join(dir, "cancelled"), started: filepath.Join(dir, "started")}
	f.spec = &schema.Spec{
		Dir: dir,
		Toolsets: map[string]schema.Toolset{"sim": {
			Kind: "mcp",
			Config: MCPConfig{Command: []string{self, "-test.run=^$"},
				Env: map[string]string{serverEnv: "1", testserver.MarkerEnv: f.marker,
					testserver.StartedEnv: f.started}},
			Timeout: schema.Duration(testtime.Scale(10 * time.Second)),
			Restart: schema.Restart{MaxRestarts: 2, Backoff: schema.Duration(time.Millisecond)},
			// An abandoned motion is killed quickly in tests.
			StopGrace: schema.Duration(testtime.Scale(30 * time.Millisecond)),
		}},
		Tools: map[string]schema.ToolContract{
			"move": {Physical: true},
		},
		Observation: schema.ObservationSource{Tool: "sim.observe"},
	}
	return f
}

// mcp changes the mcp section of the fixture's toolset.
func (f *fixture) mcp(change func(*MCPConfig)) {
	ts := f.spec.Toolsets["sim"]
	c := ts.Config.(MCPConfig)
	change(&c)
	ts.Config = c
	f.spec.Toolsets["sim"] = ts
}

func (f *fixture) start(t testing.TB) *started {
	t.Helper()
	ts, err := startMCP(t.Context(), configFor(f.spec, "sim", nil), body.Shared{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	return ts
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

func TestMCPListAndCall(t *testing.T) {
	ts := newFixture(t).start(t)
	tools, _ := ts.Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Def().Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "echo") || !strings.Contains(got, "observe") || len(names) != 9 {
		t.Fatalf("tools = %s", got)
	}
	var sch map[string]any
	if err := json.Unmarshal(toolByName(t, ts, "echo").Def().InputSchema, &sch); err != nil {
		t.Fatal(err)
	}
	if req, _ := sch["required"].([]any); len(req) != 1 || req[0] != "text" {
		t.Fatalf("echo inputSchema = %s", toolByName(t, ts, "echo").Def().InputSchema)
	}

	env := call(t, ts, "echo", `{"text":"hi"}`)
	wantSuccess(t, env)
	if env.Value["echo"] != "hi" || env.RunID != "run-echo" || env.Value["run_id"] != nil {
		t.Fatalf("echo = %+v", env)
	}
	env = call(t, ts, "plain", `{}`)
	wantSuccess(t, env)
	if env.Value["text"] != "just words" {
		t.Fatalf("plain = %+v", env)
	}
	wantFailure(t, call(t, ts, "refuse", `{}`), "the gripper is empty")
	wantFailure(t, call(t, ts, "broken", `{}`), "arm fault 17")

	env = call(t, ts, "observe", `{}`)
	wantSuccess(t, env)
	if env.Value["summary"] != "kitchen" || len(env.Images) != 2 {
		t.Fatalf("observe = %+v", env)
	}
	if im := env.Images[0]; im.Camera != "head" || im.MIME != "image/png" || string(im.Data) != "PNGDATA" {
		t.Fatalf("image 0 = %+v", im)
	}
	if env.Images[1].Camera != "image-2" {
		t.Fatalf("image 1 camera = %q", env.Images[1].Camera)
	}
}

func TestMCPInvalidArgumentsRefused(t *testing.T) {
	ts := newFixture(t).start(t)
	wantFailure(t, call(t, ts, "echo", `{}`), `missing required argument "text"`)
	wantFailure(t, call(t, ts, "echo", `{"text":"a","colour":"red"}`), `unknown argument "colour"`, "accepted: text, times")
	wantFailure(t, call(t, ts, "echo", `{"text":3}`), `argument "text" must be string, got number`)
	wantFailure(t, call(t, ts, "echo", `{"text":`), "not valid JSON")
	// A refused call never reached the server: it is still the first process.
	if ts.Restarts() != 0 {
		t.Fatalf("restarts = %d", ts.Restarts())
	}
}

func TestMCPAllowList(t *testing.T) {
	f := newFixture(t)
	cfg := f.spec.Toolsets["sim"]
	cfg.Tools = []string{"echo", "teleport"}
	f.spec.Toolsets["sim"] = cfg
	_, err := startMCP(t.Context(), configFor(f.spec, "sim", nil), body.Shared{})
	if err == nil || !strings.Contains(err.Error(), `does not provide "teleport"`) {
		t.Fatalf("err = %v", err)
	}
	cfg.Tools = []string{"echo"}
	f.spec.Toolsets["sim"] = cfg
	ts := f.start(t)
	tools, _ := ts.Tools(t.Context())
	if len(tools) != 1 || tools[0].Def().Name != "echo" {
		t.Fatalf("tools = %v", tools)
	}
}

func TestMCPEnvironmentAllowListAndCwd(t *testing.T) {
	t.Setenv("THEA_TEST_SECRET", "s3cret")
	t.Setenv("THEA_TEST_PASS", "yes")
	f := newFixture(t)
	if err := os.Mkdir(filepath.Join(f.spec.Dir, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.mcp(func(c *MCPConfig) {
		c.EnvPassthrough = []string{"THEA_TEST_PASS"}
		c.Cwd = "work"
	})
	cfg := f.spec.Toolsets["sim"].Config.(MCPConfig)
	ts := f.start(t)
	env := call(t, ts, "getenv", `{"name":"THEA_TEST_SECRET"}`)
	wantSuccess(t, env)
	if env.Value["set"] != false {
		t.Fatalf("secret leaked: %v", env.Value)
	}
	if env.Value["count"] != float64(len(cfg.Env)+1) {
		t.Fatalf("environment has %v variables, want %d", env.Value["count"], len(cfg.Env)+1)
	}
	if want := filepath.Join(f.spec.Dir, "work"); env.Value["cwd"] != want {
		t.Fatalf("cwd = %v, want %s", env.Value["cwd"], want)
	}
	env = call(t, ts, "getenv", `{"name":"THEA_TEST_PASS"}`)
	if env.Value["value"] != "yes" {
		t.Fatalf("passthrough = %v", env.Value)
	}
}

func TestMCPStartErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  schema.Toolset
		want string
	}{
		{"no transport", schema.Toolset{Kind: "mcp"}, "needs a command"},
		{"both transports", schema.Toolset{Kind: "mcp", Config: MCPConfig{URL: "http://x", Command: []string{"x"}}}, "not both"},
		{"missing binary", schema.Toolset{Kind: "mcp", Config: MCPConfig{Command: []string{"/nonexistent/robot-server"}}}, "/nonexistent/robot-server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &schema.Spec{Dir: t.TempDir(), Toolsets: map[string]schema.Toolset{"sim": tc.cfg}}
			_, err := startMCP(t.Context(), configFor(spec, "sim", nil), body.Shared{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `"sim"`) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	t.Setenv("THEA_TEST_PASS", "p")
	ts := &mcpBackend{cfg: MCPConfig{Command: []string{"thea", "sim", "serve"}, Cwd: "rel",
		Env: map[string]string{"A": "1"}, EnvPassthrough: []string{"THEA_TEST_PASS", "THEA_TEST_UNSET"}},
		tc: engine.ToolsetConfig{Dir: "/specs"}}
	argv, env, dir, err := ts.commandLine()
	if err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	if argv[0] != self || strings.Join(argv[1:], " ") != "sim serve" {
		t.Fatalf("argv = %v", argv)
	}
	if strings.Join(env, ",") != "THEA_TEST_PASS=p,A=1" || dir != "/specs/rel" {
		t.Fatalf("env = %v, dir = %s", env, dir)
	}
}

func TestKinds(t *testing.T) {
	c := engine.NewComponents()
	c.SetBody(body.NewLayer(body.Shared{}))
	if err := c.Add(BuiltinKind(), MCPKind()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Descriptors().Names(schema.KindToolset), ","); got != "builtin,mcp" {
		t.Fatalf("kinds = %s", got)
	}
	if err := c.Add(MCPKind()); err == nil {
		t.Fatal("registering twice succeeded")
	}
	ts, err := c.StartToolset(t.Context(), configFor(newFixture(t).spec, "sim", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	wantSuccess(t, call(t, ts, "echo", `{"text":"via registry"}`))
}

// started is an mcp toolset as the engine offers it: the body layer's
// toolset (its state: restarts, body, uncertainty) with its tools guarded.
type started struct {
	*body.Toolset
	g *engine.Guarded
}

func (s *started) Tools(ctx context.Context) ([]engine.Tool, error) { return s.g.Tools(ctx) }
func (s *started) Unavailable() map[string]string                   { return s.g.Unavailable() }

// startMCP starts an mcp toolset as the engine does: its transport under
// a body layer over deps, its tools guarded.
func startMCP(ctx context.Context, cfg engine.ToolsetConfig, deps body.Shared) (*started, error) {
	g, err := engine.StartToolset(ctx, MCPKind(), cfg, body.NewLayer(deps), deps.Logger)
	if err != nil {
		return nil, err
	}
	return &started{Toolset: g.Toolset.(*body.Toolset), g: g}, nil
}
