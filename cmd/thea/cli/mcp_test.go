package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
)

// mcpClient starts `thea mcp` (this test binary as thea) on spec as a real
// subprocess and connects the official Go SDK's client to it over stdio.
func mcpClient(t *testing.T, spec string, args ...string) *mcp.ClientSession {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"mcp", "--spec", spec}, args...)...)
	cmd.Dir = filepath.Dir(spec)
	cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
	stderr := &writeBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "thea-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to thea mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		_ = cs.Close() // closes its stdin and waits for the process to exit
		if strings.Contains(stderr.String(), "DATA RACE") {
			t.Error("thea mcp raced (built with -race)")
		}
		if t.Failed() {
			t.Logf("thea mcp's stderr:\n%s", stderr.String())
		}
	})
	return cs
}

// call calls a tool and returns its result's text, joined by newlines, and
// how many images it holds.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (text string, images int, isError bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(60*time.Second))
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var b []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			b = append(b, c.Text)
		case *mcp.ImageContent:
			images++
		}
	}
	return strings.Join(b, "\n"), images, res.IsError
}

// An independent MCP client drives the household task over stdio: the
// robot's tools with their contracts' hints, each call through the hooks
// and the evaluator (a failed grasp's verdict, a clamped move said as
// such, a malformed call answered readably), the mug in the top drawer,
// and the session's run log replays as a thea test episode.
func TestMCPHouseholdTaskOverStdio(t *testing.T) {
	spec := testutil.ExampleCopy(t, householdSpec)
	runs := t.TempDir()
	cs := mcpClient(t, spec, "--run-log", runs)
	ctx := t.Context()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools.Tools {
		byName[tl.Name] = tl
	}
	for _, name := range []string{"get_clearance", "stop"} {
		if byName[name] != nil {
			t.Errorf("hidden tool %s is offered", name)
		}
	}
	for name, physical := range map[string]bool{"navigate_to": true, "pick_up": true, "move_base": true, "notify_user": false} {
		tl := byName[name]
		if tl == nil {
			t.Fatalf("tool %s not offered; got %v", name, tools.Tools)
		}
		a := tl.Annotations
		if a == nil || a.ReadOnlyHint == physical || a.DestructiveHint == nil || *a.DestructiveHint != physical {
			t.Errorf("%s: annotations %+v, want readOnlyHint %v and destructiveHint %v", name, a, !physical, physical)
		}
	}
	if d := byName["move_base"].Description; !strings.Contains(d, "the harness clamps it to the free space") {
		t.Errorf("move_base's description is not its contract's: %q", d)
	}
	if d := byName["pick_up"].Description; strings.Contains(d, "no longer on its support") {
		t.Errorf("pick_up's description holds its post-condition: %q", d)
	}

	driveHouseholdTask(t, cs, nil)
	// Consolidation at the task's end wrote pick_up's tool experience, which
	// its description now carries, as for the model's next task.
	tools, err = cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "pick_up" && !strings.Contains(tl.Description, "Experience from earlier tasks:") {
			t.Errorf("pick_up's description lacks the task's tool experience: %q", tl.Description)
		}
	}
	replayRunLog(t, spec, runs)
}

// driveHouseholdTask puts the mug in the top drawer through cs, as a model
// would: begin_task, a malformed call answered readably, a failed grasp's
// verdict, a clamped move said as such, then end_task. meanwhile, if not
// nil, runs once the task is begun.
func driveHouseholdTask(t *testing.T, cs *mcp.ClientSession, meanwhile func()) {
	t.Helper()
	text, images, _ := call(t, cs, "begin_task", map[string]any{"instruction": "Put the mug in the top drawer"})
	if !strings.Contains(text, "Task begun") || images == 0 {
		t.Errorf("begin_task: want the present with camera images, got %d images and %q", images, text)
	}
	if meanwhile != nil {
		meanwhile()
	}
	// A malformed call is a readable result, not a protocol error.
	if text, _, isErr := call(t, cs, "pick_up", map[string]any{"object_name": 5}); !isErr || !strings.Contains(text, "object_name") {
		t.Errorf("malformed pick_up: error %v, %q", isErr, text)
	}
	steps := []struct {
		tool, want string
		args       map[string]any
	}{
		{"navigate_to", "verdict: success", map[string]any{"target": "table"}},
		{"pick_up", "verdict: failure", map[string]any{"object_name": "mug"}},
		{"move_base", "by clamp hook clamp_translation", map[string]any{"direction": "forward", "distance_m": 1.0}},
		{"pick_up", "verdict: success", map[string]any{"object_name": "mug"}},
		{"navigate_to", "verdict: success", map[string]any{"target": "cabinet"}},
		{"open_drawer", "verdict: success", map[string]any{"name": "top_drawer"}},
		{"place", "verdict: success", map[string]any{"object_name": "mug", "target": "top_drawer", "relation": "in"}},
		{"close_drawer", "verdict: success", map[string]any{"name": "top_drawer"}},
	}
	for i, st := range steps {
		text, _, _ := call(t, cs, st.tool, st.args)
		t.Logf("%s -> %s", st.tool, text)
		if !strings.Contains(text, st.want) {
			t.Fatalf("step %d %s: want %q in the result, got:\n%s", i, st.tool, st.want, text)
		}
		if strings.Contains(text, "evidence") {
			t.Errorf("step %d %s: the result holds the verdict's evidence:\n%s", i, st.tool, text)
		}
	}
	text, _, _ = call(t, cs, "end_task", map[string]any{"summary": "The mug is in the top drawer."})
	if !strings.Contains(text, "final") {
		t.Fatalf("end_task: %q", text)
	}
}

// replayRunLog replays the one task's run log under runs as a thea test
// episode, which must pass.
func replayRunLog(t *testing.T, spec, runs string) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one task's run log under %s, got %v (%v)", runs, dirs, err)
	}
	if code, out, errs := run(t, "test", "--spec", spec, "--save", filepath.Dir(dirs[0]), "mcp-session"); code != 0 {
		t.Fatalf("thea test --save: exit %d\n%s\n%s", code, out, errs)
	}
	return dirs[0]
}

// writeBuffer is a lockedBuffer a process writes to.
type writeBuffer struct{ lockedBuffer }

func (w *writeBuffer) Write(p []byte) (int, error) {
	w.add(string(p))
	return len(p), nil
}

// noReversing replaces the household spec's never-firing confirm hook with
// a block of backward moves.
func noReversing(t *testing.T, spec string) {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	old := "\t\tname:   \"confirm_nothing\"\n\t\twhen:   \"false\"\n\t\taction: \"confirm\"\n\t\tprompt: \"Allow this call?\""
	if !strings.Contains(string(b), old) {
		t.Fatal("the household spec's confirm_nothing hook changed; update this test")
	}
	b = []byte(strings.Replace(string(b), old, `		name:   "no_reversing"
		when:   "tool.name == 'move_base'"
		action: "block"
		rule:   "args.direction == 'backward'"
		reason: "This robot has no rear camera: it never drives backward; turn around first."`, 1))
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Oversized arguments are refused before the session; a robot call
// without begin_task opens a task that the idle period ends (its run log
// says so); a blocked motion is a result saying which hook
// blocked it and why; the present, the profile and the skills are there
// without a task.
func TestMCPBlockedMotionIdleTaskAndPresent(t *testing.T) {
	spec := testutil.ExampleCopy(t, householdSpec)
	noReversing(t, spec)
	runs := t.TempDir()
	// Any positive idle ends the task once the call returns.
	cs := mcpClient(t, spec, "--run-log", runs, "--idle", "1ms", "--max-arg-bytes", "512")
	ctx := t.Context()

	// Arguments past the bound never reach the session (no task opens).
	big := map[string]any{"target": strings.Repeat("k", 600)}
	if text, _, isErr := call(t, cs, "navigate_to", big); !isErr || !strings.Contains(text, "at most 512") {
		t.Errorf("oversized arguments: error %v, %q", isErr, text)
	}

	text, _, isErr := call(t, cs, "move_base", map[string]any{"direction": "backward", "distance_m": 0.3})
	if !isErr || !strings.Contains(text, "blocked by hook no_reversing") || !strings.Contains(text, "no rear camera") {
		t.Errorf("blocked move_base: error %v, result %q", isErr, text)
	}
	var log string
	testtime.Wait(t, "the implicit task's done event in its run log", func() bool {
		files, _ := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
		if len(files) != 1 {
			return false
		}
		b, _ := os.ReadFile(files[0])
		log = string(b)
		return strings.Contains(log, `"kind":"done"`)
	})
	for _, want := range []string{"task begun by an MCP client without begin_task", "made no call for 1ms", "blocked by hook no_reversing"} {
		if !strings.Contains(log, want) {
			t.Errorf("the run log lacks %q:\n%s", want, log)
		}
	}

	text, images, _ := call(t, cs, "observe", map[string]any{})
	if images != 2 || !strings.Contains(text, "Scene Graph Brief") || !strings.Contains(text, "top_drawer: closed") {
		t.Errorf("observe without a task: %d images, %q", images, text)
	}
	obs, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "thea://observation"})
	if err != nil || len(obs.Contents) != 1 || !strings.Contains(obs.Contents[0].Text, "Observation (turn") {
		t.Errorf("thea://observation: %v %+v", err, obs)
	}
	prof, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "thea://profile"})
	if err != nil || len(prof.Contents) != 1 || !strings.Contains(prof.Contents[0].Text, "Embodiment Profile: household-sim") {
		t.Errorf("thea://profile: %v %+v", err, prof)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "tidy-kitchen" || !strings.Contains(prompts.Prompts[0].Description, "mugs in the top drawer") {
		t.Fatalf("prompts: %v %+v", err, prompts)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "tidy-kitchen"})
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("get prompt: %v %+v", err, got)
	}
	if tc, ok := got.Messages[0].Content.(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "# Tidy the kitchen") {
		t.Errorf("the prompt is not the skill's body: %+v", got.Messages[0].Content)
	}
}

// A robot tool named like one of the face's own is refused at start, by
// name, rather than left unreachable.
func TestMCPRefusesAToolNamedLikeItsOwn(t *testing.T) {
	spec := testutil.ExampleCopy(t, householdSpec)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	const hidden = "\tobserve: hidden:       true\n"
	if !strings.Contains(string(b), hidden) {
		t.Fatal("the household spec no longer hides observe; update this test")
	}
	if err := os.WriteFile(spec, []byte(strings.Replace(string(b), hidden, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "mcp", "--spec", spec)
	if code != 1 || !strings.Contains(errs, "tools.observe: the MCP face offers its own observe tool") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
}
