package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// The fakes a draft is taken from, each `thea sim rosbridge` in a real
// subprocess: the TurtleBot with Nav2, and the UR-class arm.
var draftRobots = []struct {
	name string
	args []string
	// validated is `thea validate`'s line for the draft as written.
	validated string
}{
	{"turtlebot", []string{"-nav-speed", "2"}, "spec ok: 8 rules compiled, 6 tests passed\n"},
	{"arm", []string{"-robot", "arm", "-arm-motion", "300ms"}, "spec ok: 6 rules compiled, 5 tests passed\n"},
}

// draftFromSim starts a fake in a subprocess and drafts a spec from its
// graph with `thea init --from-ros`; it returns the fake's URL and the
// spec's path.
func draftFromSim(t *testing.T, args ...string) (string, string) {
	t.Helper()
	url := startSim(t, args...)
	dir := filepath.Join(t.TempDir(), "bot")
	code, out, errs := run(t, "init", "--from-ros", url, "bot", "--dir", dir, "--sample-window", testtime.Scale(3*time.Second).String())
	if code != 0 || !strings.Contains(out, "drafted "+dir) || !strings.Contains(out, "REVIEW lines") {
		t.Fatalf("init --from-ros: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	return url, filepath.Join(dir, "spec.cue")
}

// simState reads a fake's state through its /rosbridgetest/state service,
// as a test must for a fake in another process.
func simState(t *testing.T, url string) rosbridgetest.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	c, err := wire.Dial(ctx, wire.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.CallService(ctx, rosbridgetest.ServiceState, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st rosbridgetest.State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("state: %v: %s", err, raw)
	}
	return st
}

// The draft of each fake's graph validates as written (its own rule tests
// pass, with no warning) and passes the live check against the graph it
// was drafted from, with no warning.
func TestInitFromROSValidates(t *testing.T) {
	for _, robot := range draftRobots {
		t.Run(robot.name, func(t *testing.T) {
			_, spec := draftFromSim(t, robot.args...)
			code, out, errs := run(t, "validate", spec)
			if code != 0 || out != robot.validated {
				t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			code, out, errs = run(t, "validate", "--live", spec)
			if code != 0 || !strings.HasSuffix(out, "back-ends checked live\n") || strings.Contains(out, "warning") {
				t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
		})
	}
}

// scriptDraft turns a draft's confirmations to a script of answers and
// writes its episode: the draft as written otherwise.
func scriptDraft(t *testing.T, spec, episode, answers string) {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), `user: {channel: "terminal"}`, `user: {channel: "script", script: "answers.yaml"}`, 1)
	if text == string(b) {
		t.Fatal("the draft declares no terminal user channel")
	}
	dir := filepath.Dir(spec)
	for name, body := range map[string]string{"spec.cue": text, "episode.yaml": episode, "answers.yaml": answers} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// results lists each tool result as "tool success", and each
// review_confirm decision as "tool decision".
func results(evs []runlog.Event) (out, confirms []string) {
	for _, ev := range evs {
		switch {
		case ev.Kind == runlog.EventToolResult && ev.Result != nil:
			out = append(out, fmt.Sprintf("%s %v", ev.Tool, ev.Result.Success))
		case ev.Kind == runlog.EventHook && ev.Hook != nil && ev.Hook.Hook == "review_confirm":
			confirms = append(confirms, fmt.Sprintf("%s %s", ev.Tool, ev.Hook.Decision))
		}
	}
	return out, confirms
}

// The TurtleBot's draft runs a scripted task against the fake: each
// physical call asks for confirmation; answered yes, the robot drives and
// docks (one motion at a time); answered no, nothing reaches the robot.
func TestInitFromROSRunsAScriptedTask(t *testing.T) {
	for _, answer := range []string{"yes", "no"} {
		t.Run(answer, func(t *testing.T) {
			url, spec := draftFromSim(t, draftRobots[0].args...)
			scriptDraft(t, spec, `- tool_calls: [{name: navigate_to_pose, arguments: {pose_x: 0.3, pose_y: 0.0}}]
- tool_calls: [{name: dock, arguments: {}}]
- text: Drove a little and docked again.
`, fmt.Sprintf("answers:\n  - {match: Allow navigate_to_pose, answer: %q}\n  - {match: Allow dock, answer: %q}\n", answer, answer))
			got, confirms := results(runTask(t, spec, "Drive 30 cm forward, then dock."))
			st := simState(t, url)
			if answer == "yes" {
				if want := []string{"navigate_to_pose true", "dock true"}; !slices.Equal(got, want) {
					t.Fatalf("tool results %v, want %v", got, want)
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

// The arm's draft runs a scripted pick and place against the fake arm,
// each call confirmed: its detector's mug is in the first Brief, placed in
// the scene's frame (world) through TF; after the pick the gripper's
// joint says it holds something, after the place nothing; the mug is in
// the bin, one motion at a time. A pick of what is not on the table,
// which the skill answers SUCCEEDED with success: false, is a failure
// with the skill's reason (the draft judges the result); a trajectory of
// points from structured arguments moves the arm.
func TestInitFromROSRunsAnArmTask(t *testing.T) {
	url, spec := draftFromSim(t, draftRobots[1].args...)
	scriptDraft(t, spec, `- tool_calls: [{name: pick, arguments: {object: cup}}]
- tool_calls: [{name: pick, arguments: {object: mug}}]
- tool_calls: [{name: place, arguments: {target: bin}}]
- tool_calls: [{name: arm_controller_follow_joint_trajectory, arguments: {trajectory_points: [{positions: [0.1, -1.5, 1.5, -1.6, -1.57, 0], time_from_start_s: 0.2}, {positions: [0, -1.57, 1.57, -1.57, -1.57, 0], time_from_start_s: 0.4}]}}]
- text: The mug is in the bin and the arm is home.
`, "answers:\n"+strings.Repeat("  - {match: Allow, answer: \"yes\"}\n", 4))
	evs := runTask(t, spec, "Put the mug in the bin, then go home.")
	got, confirms := results(evs)
	want := []string{"pick false", "pick true", "place true", "arm_controller_follow_joint_trajectory true"}
	if !slices.Equal(got, want) || len(confirms) != 4 {
		t.Fatalf("tool results %v, want %v; confirmations %v", got, want, confirms)
	}
	var reason string
	var held []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Result != nil && !ev.Result.Success {
			reason = ev.Result.Reason
		}
		if ev.Kind == runlog.EventObservation && ev.Observation != nil {
			held = append(held, ev.Observation.Held)
		}
	}
	if !strings.Contains(reason, `no "cup" within reach`) {
		t.Errorf("the failed pick's reason %q lacks the skill's message", reason)
	}
	if want := []string{"", "", "something", "", ""}; !slices.Equal(held, want) {
		t.Errorf("held by turn %q, want %q", held, want)
	}
	if b := briefs(evs)[1]; !strings.Contains(b, "frame world") || !strings.Contains(b, "obj:mug: at (0.45, 0.15)") || !strings.Contains(b, "obj:bin") {
		t.Errorf("turn 1 Brief lacks the mug on the table and the bin, in world:\n%s", b)
	}
	st := simState(t, url)
	if st.Arm == nil || st.Arm.Mug != "bin" || st.MaxMotions != 1 || st.Arm.DashboardStops != 0 {
		t.Fatalf("fake arm: %+v, most motions at once %d", st.Arm, st.MaxMotions)
	}
}

// Every physical tool of each draft is behind the review confirmation and
// the safety readings. The written spec is parsed through the schema
// package; for each tool its toolset's declaration or its contract makes
// physical, a call with the spec's own safe readings and clearance is
// allowed once confirmed, blocked unconfirmed, and blocked with no
// readings, by the spec's own hooks.
func TestInitFromROSEveryPhysicalToolGuarded(t *testing.T) {
	for _, robot := range draftRobots {
		t.Run(robot.name, func(t *testing.T) {
			_, path := draftFromSim(t, robot.args...)
			spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
			if spec == nil {
				t.Fatalf("load: %v", diags)
			}
			sec, ok := spec.Toolsets["robot"].Config.(rosbridge.Section)
			if !ok {
				t.Fatalf("toolset robot is a %T", spec.Toolsets["robot"].Config)
			}
			cfg := sec.Rosbridge
			var physical []string
			for _, name := range slices.Sorted(maps.Keys(cfg.Tools)) {
				if cfg.Tools[name].IsPhysical() || spec.Tools[name].Physical {
					physical = append(physical, name)
				}
			}
			if len(physical) < 2 {
				t.Fatalf("physical tools %v: each fake has at least two tools that move it", physical)
			}
			if len(spec.Tests) == 0 || spec.Tests[0].Expect.Verdict != "allow" {
				t.Fatal("the draft's first rule test is not its safe call")
			}
			safe := spec.Tests[0]
			no, yes := false, true
			spec.Tests = nil
			for _, name := range physical {
				call := &schema.TestCall{Tool: name, Args: sampleArgs(cfg.Tools[name].Args)}
				spec.Tests = append(spec.Tests,
					schema.RuleTest{Name: name + " confirmed", Call: call, Clearance: safe.Clearance, Readings: safe.Readings, Confirm: &yes,
						Expect: schema.TestExpect{Verdict: "allow"}},
					schema.RuleTest{Name: name + " unconfirmed", Call: call, Clearance: safe.Clearance, Readings: safe.Readings, Confirm: &no,
						Expect: schema.TestExpect{Verdict: "block", Hook: "review_confirm"}},
					schema.RuleTest{Name: name + " without readings", Call: call, Clearance: safe.Clearance, Readings: map[string]any{}, Confirm: &yes,
						Expect: schema.TestExpect{Verdict: "block", ReasonContains: "missing"}})
			}
			if fails := policies.RunRuleTests(t.Context(), spec, nil); len(fails) > 0 {
				t.Fatalf("physical tools not guarded: %v", fails)
			}
		})
	}
}

// sampleArgs are values for a tool's required arguments, of their
// declared types (an array empty, an object of its required properties).
func sampleArgs(args map[string]rosbridge.ArgDecl) map[string]any {
	out := map[string]any{}
	for name, a := range args {
		if !a.Optional {
			out[name] = sampleValue(a)
		}
	}
	return out
}

func sampleValue(a rosbridge.ArgDecl) any {
	switch a.Type {
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "string":
		return ""
	case "array":
		return []any{}
	}
	return sampleArgs(a.Properties)
}

// A draft never replaces an earlier one unless asked (--force), and a
// graph that cannot be read writes nothing.
func TestInitFromROSRefuses(t *testing.T) {
	url, spec := draftFromSim(t, draftRobots[0].args...)
	dir := filepath.Dir(spec)
	if err := os.WriteFile(spec, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "init", "--from-ros", url, "bot", "--dir", dir)
	if code != 2 || !strings.Contains(errs, "spec.cue exists: refusing to overwrite it (--force replaces it)") {
		t.Fatalf("second draft: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(spec); string(b) != "mine" {
		t.Fatalf("the existing spec was replaced: %q", b)
	}
	if code, _, errs := run(t, "init", "--from-ros", url, "bot", "--dir", dir, "--force"); code != 0 {
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
		{[]string{"init", "--from-ros", url, "bot", "--body", "arm", "--dir", filepath.Join(t.TempDir(), "b")}, 2, "--body and --from-ros"},
		{[]string{"init", "bot", "--force", "--dir", filepath.Join(t.TempDir(), "c")}, 2, "go with --from-ros"},
		{[]string{"init", "--from-ros", "ws://127.0.0.1:1", "bot", "--timeout", "300ms", "--dir", filepath.Join(t.TempDir(), "d")}, 2, "rosbridge could not be reached"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}
