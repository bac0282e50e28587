package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// draftFromFake serves a fake TurtleBot and drafts a spec from its graph
// with `thea init --from-ros`; it returns the fake and the spec's path.
func draftFromFake(t *testing.T) (*rosbridgetest.Server, string) {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{NavSpeed: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dir := filepath.Join(t.TempDir(), "bot")
	code, out, errs := run(t, "init", "--from-ros", srv.URL(), "bot", "--dir", dir)
	if code != 0 || !strings.Contains(out, "drafted "+dir) || !strings.Contains(out, "REVIEW lines") {
		t.Fatalf("init --from-ros: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	return srv, filepath.Join(dir, "spec.cue")
}

// The draft of the TurtleBot's graph validates as written (its own rule
// tests pass, with no warning) and passes the live check against the graph
// it was drafted from.
func TestInitFromROSValidates(t *testing.T) {
	_, spec := draftFromFake(t)
	code, out, errs := run(t, "validate", spec)
	if code != 0 || out != "spec ok: 8 rules compiled, 6 tests passed\n" {
		t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, errs = run(t, "validate", "--live", spec)
	if code != 0 || !strings.HasSuffix(out, "back-ends checked live\n") || strings.Contains(out, "warning") {
		t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// The draft runs a scripted task against the fake: each physical call asks
// for confirmation; answered yes, the robot drives and docks (one motion at
// a time); answered no, nothing reaches the robot.
func TestInitFromROSRunsAScriptedTask(t *testing.T) {
	for _, answer := range []string{"yes", "no"} {
		t.Run(answer, func(t *testing.T) {
			srv, spec := draftFromFake(t)
			dir := filepath.Dir(spec)
			b, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Replace(string(b), `user: {channel: "terminal"}`, `user: {channel: "script", script: "answers.yaml"}`, 1)
			if text == string(b) {
				t.Fatal("the draft declares no terminal user channel")
			}
			files := map[string]string{
				"spec.cue": text,
				"episode.yaml": `- tool_calls: [{name: navigate_to_pose, arguments: {pose_x: 0.3, pose_y: 0.0}}]
- tool_calls: [{name: dock, arguments: {}}]
- text: Drove a little and docked again.
`,
				"answers.yaml": fmt.Sprintf("answers:\n  - {match: Allow navigate_to_pose, answer: %q}\n  - {match: Allow dock, answer: %q}\n", answer, answer),
			}
			for name, body := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			evs := runTask(t, spec, "Drive 30 cm forward, then dock.")
			var results, confirms []string
			for _, ev := range evs {
				switch {
				case ev.Kind == runlog.EventToolResult && ev.Result != nil:
					results = append(results, fmt.Sprintf("%s %v", ev.Tool, ev.Result.Success))
				case ev.Kind == runlog.EventHook && ev.Hook != nil && ev.Hook.Hook == "review_confirm":
					confirms = append(confirms, fmt.Sprintf("%s %s", ev.Tool, ev.Hook.Decision))
				}
			}
			st := srv.State()
			if answer == "yes" {
				if want := []string{"navigate_to_pose true", "dock true"}; !slices.Equal(results, want) {
					t.Fatalf("tool results %v, want %v", results, want)
				}
				if !st.Docked || st.GoalsSucceeded != 1 || st.MaxMotions != 1 {
					t.Fatalf("fake: docked %v, goals succeeded %d, most motions at once %d", st.Docked, st.GoalsSucceeded, st.MaxMotions)
				}
			} else if st.GoalsReceived != 0 || st.ServiceCalls["/dock"] != 0 || st.Docked {
				t.Fatalf("refused calls reached the robot: %d goals, %d dock calls", st.GoalsReceived, st.ServiceCalls["/dock"])
			}
			if len(confirms) != 2 {
				t.Fatalf("review_confirm decided %v, want once per physical call", confirms)
			}
		})
	}
}

// Every physical tool of a draft is behind the review confirmation and
// the safety readings: the spec is parsed through the schema package, and
// for each tool its toolset's declaration or its contract makes physical,
// an unconfirmed call and a call with no readings are both blocked by the
// spec's own hooks.
func TestInitFromROSEveryPhysicalToolGuarded(t *testing.T) {
	_, path := draftFromFake(t)
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if spec == nil {
		t.Fatalf("load: %v", diags)
	}
	sec, ok := spec.Toolsets["robot"].Config.(rosbridge.Section)
	if !ok {
		t.Fatalf("toolset robot is a %T", spec.Toolsets["robot"].Config)
	}
	cfg, err := rosbridge.DecodeConfig(sec.Rosbridge)
	if err != nil {
		t.Fatal(err)
	}
	var physical []string
	for name, decl := range cfg.Tools {
		if decl.IsPhysical() || spec.Tools[name].Physical {
			physical = append(physical, name)
		}
	}
	slices.Sort(physical)
	if len(physical) < 2 {
		t.Fatalf("physical tools %v: the TurtleBot's navigation and dock are both physical", physical)
	}
	safe := map[string]any{"light_curtain": true, "person_distance": 3.0}
	clear := schema.Clearance{"front": 2, "back": 2, "left": 2, "right": 2}
	no, yes := false, true
	spec.Tests = nil
	for _, name := range physical {
		args := map[string]any{}
		for arg, a := range cfg.Tools[name].Args {
			if !a.Optional {
				args[arg] = 0.5
			}
		}
		spec.Tests = append(spec.Tests,
			schema.RuleTest{Name: name + " unconfirmed", Call: &schema.TestCall{Tool: name, Args: args}, Clearance: clear, Readings: safe, Confirm: &no,
				Expect: schema.TestExpect{Verdict: "block", Hook: "review_confirm"}},
			schema.RuleTest{Name: name + " without readings", Call: &schema.TestCall{Tool: name, Args: args}, Clearance: clear, Readings: map[string]any{}, Confirm: &yes,
				Expect: schema.TestExpect{Verdict: "block", ReasonContains: "missing"}})
	}
	if fails := policies.RunRuleTests(t.Context(), spec); len(fails) > 0 {
		t.Fatalf("physical tools not guarded: %v", fails)
	}
}

// A draft never replaces an earlier one unless asked (--force), and a
// graph that cannot be read writes nothing.
func TestInitFromROSRefuses(t *testing.T) {
	srv, spec := draftFromFake(t)
	dir := filepath.Dir(spec)
	if err := os.WriteFile(spec, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "init", "--from-ros", srv.URL(), "bot", "--dir", dir)
	if code != 2 || !strings.Contains(errs, "spec.cue exists: refusing to overwrite it (--force replaces it)") {
		t.Fatalf("second draft: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(spec); string(b) != "mine" {
		t.Fatalf("the existing spec was replaced: %q", b)
	}
	if code, _, errs := run(t, "init", "--from-ros", srv.URL(), "bot", "--dir", dir, "--force"); code != 0 {
		t.Fatalf("--force: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(spec); !strings.Contains(string(b), "thea init --from-ros") {
		t.Fatal("--force did not write the draft")
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"init", "--from-ros", "http://x:9090", "bot", "--dir", filepath.Join(t.TempDir(), "a")}, 2, "ws:// or wss://"},
		{[]string{"init", "--from-ros", srv.URL(), "bot", "--body", "arm", "--dir", filepath.Join(t.TempDir(), "b")}, 2, "--body and --from-ros"},
		{[]string{"init", "bot", "--force", "--dir", filepath.Join(t.TempDir(), "c")}, 2, "go with --from-ros"},
		{[]string{"init", "--from-ros", "ws://127.0.0.1:1", "bot", "--timeout", "300ms", "--dir", filepath.Join(t.TempDir(), "d")}, 2, "rosbridge could not be reached"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}
