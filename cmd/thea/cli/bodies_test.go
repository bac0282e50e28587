package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// needPython skips a test whose back-end is a Python script when python3 is
// absent (the CI image has it).
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the example's back-end is a Python script")
	}
}

// startTimeout is a spec's start_timeout line (CUE or YAML).
var startTimeout = regexp.MustCompile(`(?m)^(\s*start_timeout:\s*)"?([0-9]+(?:ms|s|m))"?`)

// scaleStartTimeouts scales the start_timeout of a spec's toolsets: a bound
// on a back-end that never starts, which a Python or Node back-end on a
// loaded machine under the race detector may need more of than the
// example gives it.
func scaleStartTimeouts(t *testing.T, spec []byte) []byte {
	t.Helper()
	return startTimeout.ReplaceAllFunc(spec, func(line []byte) []byte {
		m := startTimeout.FindSubmatch(line)
		d, err := time.ParseDuration(string(m[2]))
		if err != nil {
			t.Fatalf("start_timeout %q: %v", m[2], err)
		}
		return fmt.Appendf(nil, "%s%q", m[1], testtime.Scale(d).String())
	})
}

// copyExample copies an example's files into a temp dir, its specs'
// start_timeout scaled.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "examples", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if ext := filepath.Ext(e.Name()); ext == ".cue" || ext == ".yaml" {
			b = scaleStartTimeouts(t, b)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func thea(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, args)
	return code, out.String(), errb.String()
}

// runTask runs one task of a spec and returns its run log.
func runTask(t *testing.T, spec, instruction string) []runlog.Event {
	t.Helper()
	runs := t.TempDir()
	code, out, errs := thea(t, "run", "--spec", spec, "--run-log", runs, instruction)
	if code != 0 {
		t.Fatalf("thea run exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	return readRunLog(t, runs)
}

// verdicts lists each evaluation as "tool status by source".
func verdicts(evs []runlog.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventEvaluation && ev.Verdict != nil {
			out = append(out, ev.Tool+" "+string(ev.Verdict.Status)+" by "+ev.Verdict.Source)
		}
	}
	return out
}

// The second bundled body, end to end: a fixed tabletop arm whose back-end
// is a Python script. Its light curtain is its only clearance sector, its
// grip force limit is declared by the spec, a check judges each motion and
// the arm's load cell, a verifier tool, judges each grasp: the first grasp,
// which the gripper reports as done, is a failure.
func TestTabletopArm(t *testing.T) {
	needPython(t)
	dir := copyExample(t, "tabletop-arm")
	spec := filepath.Join(dir, "spec.cue")

	code, out, errs := thea(t, "validate", "--live", spec)
	if code != 0 || out != "spec ok: 17 rules compiled, 9 tests passed, back-ends checked live\n" {
		t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}

	evs := runTask(t, spec, "Put the red cube in the bin")
	want := []string{
		"move_to success by check", "grasp failure by verifier", "release success by check",
		"move_to success by check", "grasp success by verifier", "move_to success by check", "release success by check",
	}
	if got := verdicts(evs); !slices.Equal(got, want) {
		t.Errorf("verdicts:\n got %v\nwant %v", got, want)
	}
	if n := countHooks(evs, "slow_enough", "clamp"); n != 3 {
		t.Errorf("slow_enough clamped %d calls, want 3", n)
	}
	// The first grasp asked for 40 N; the declared max_force_n is 20.
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolCall && ev.Tool == "grasp" {
			if f, _ := ev.Args["force_n"].(float64); f > 20 {
				t.Errorf("grasp reached the arm with force_n %v above the declared limit", f)
			}
		}
	}
	if done := doneOf(evs); done == nil || done.Reason != runlog.DoneFinal || done.Turns != 8 {
		t.Errorf("done = %+v, want a final answer after 8 turns", done)
	}
	last := lastObservation(evs)
	if last == nil || last.Held != "" || !slices.ContainsFunc(last.Detections, func(d world.Detection) bool {
		return d.Name == "red_cube" && d.Relation == "in" && d.Target == "bin" && d.Position != nil
	}) {
		t.Errorf("final observation = %+v, want the red cube in the bin, with its position", last)
	}
	if last != nil && (last.Gripper == nil || last.EndEffector == nil || len(last.Joints) != 6 || last.Clearance["curtain"] != 1.2) {
		t.Errorf("the arm fields of the observation were lost: %+v", last)
	}
}

// An operator's hand in the light curtain stops the arm: after the first
// motion the back-end reports an intrusion, and the fresh reading before the
// grasp blocks it before it reaches the arm.
func TestTabletopArmLightCurtain(t *testing.T) {
	needPython(t)
	dir := copyExample(t, "tabletop-arm")
	t.Setenv("ARM_INTRUSION_AFTER", "1")
	episode := `
- tool_calls:
    - {name: move_to, arguments: {x: 0.35, y: 0.10, z: 0.02, speed_mps: 0.2}}
- tool_calls:
    - {name: grasp, arguments: {object: red_cube, force_n: 10}}
- text: "Someone is reaching into the workcell; I stopped and did not grasp."
`
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(episode), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := runTask(t, filepath.Join(dir, "spec.cue"), "Pick up the red cube")
	got := toolOutcomes(evs)
	if len(got) != 2 || got[0] != "move_to ok" || !strings.HasPrefix(got[1], "grasp failed: blocked by hook light_curtain") {
		t.Errorf("tool results = %v, want move_to ok, then grasp blocked by light_curtain", got)
	}
	if slices.Contains(verdicts(evs), "grasp success by verifier") {
		t.Error("a blocked grasp was evaluated")
	}
}

// The minimal back-end of the manual's "Writing a back-end" (docs/writing-a-back-end.md), through the real
// mcp toolset: validate --live calls its observation and clearance tools,
// and a task moves the cart, clamped by its declared sectors and judged by
// its verifier.
func TestMinimalBackend(t *testing.T) {
	needPython(t)
	dir := copyExample(t, "minimal-backend")
	spec := filepath.Join(dir, "spec.yaml")
	code, out, errs := thea(t, "validate", "--live", spec)
	if code != 0 || out != "spec ok: 7 rules compiled, 2 tests passed, back-ends checked live\n" {
		t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	evs := runTask(t, spec, "Move the cart 0.4 m ahead, then as far back as you can")
	if got, want := verdicts(evs), []string{"move success by verifier", "move success by verifier"}; !slices.Equal(got, want) {
		t.Errorf("verdicts = %v, want %v", got, want)
	}
	var moved []float64
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolCall && ev.Tool == "move" {
			f, _ := ev.Args["distance_m"].(float64)
			moved = append(moved, f)
		}
	}
	if !slices.Equal(moved, []float64{0.4, -0.85}) {
		t.Errorf("moves sent = %v, want 0.4 then -0.85 (clamped at the safety margin behind)", moved)
	}
	if last := lastObservation(evs); last == nil || last.Clearance["behind"] != 0.05 || len(last.Images) != 1 || last.Images[0].Camera != "cart" {
		t.Errorf("final observation = %+v, want the cart 0.05 m from the start and its camera image", last)
	}
}

// What only the running back-end can tell: with no tools list, a misspelt
// contract, an argument a rule reads that the tool does not take, and an
// observation tool that does not answer an Observation pass static
// validation (with a warning) and fail --live, each at its place.
func TestValidateLiveFindsWhatStaticCannot(t *testing.T) {
	needPython(t)
	dir := copyExample(t, "minimal-backend")
	b, err := os.ReadFile(filepath.Join(dir, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, r := range [][2]string{
		{"    tools: [observe, get_clearance, move, verify_position, stop]\n", ""},
		{"  get_clearance: {hidden: true}", "  get_clearence: {hidden: true}"},
		{`rule: "abs(args.distance_m) > limits.rail_length_m / 2"`, `rule: "abs(args.distanse_m) > limits.rail_length_m / 2"`},
		{"observation:\n  tool: observe", "observation:\n  tool: get_clearance"},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("spec.yaml no longer has %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	// Without rule tests, which would catch the argument typo themselves
	// (the rule fails closed).
	src, _, _ = strings.Cut(src, "tests:\n")
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := thea(t, "validate", spec)
	if code != 0 || !strings.Contains(out, "warning: toolsets.cart: no tools list") {
		t.Fatalf("static validate: exit %d, want 0 with the open-toolset warning:\n%s", code, out)
	}
	code, out, _ = thea(t, "validate", "--live", spec)
	for _, want := range []string{
		`tools.get_clearence: no running back-end has the tool "get_clearence" (did you mean "get_clearance"?)`,
		`hooks.pre[1].rule: reads args.distanse_m, but no tool it applies to (move) has an argument "distanse_m" (did you mean "distance_m"?)`,
		`observation.tool: get_clearance answered outside the contract: it failed: get_clearance returned no usable observation`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate --live output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 || strings.Contains(out, "spec ok") {
		t.Errorf("validate --live: exit %d, want 1 without a summary", code)
	}
}

// A typo in the server command is found before anything runs.
func TestValidateMissingCommand(t *testing.T) {
	dir := copyExample(t, "minimal-backend")
	b, err := os.ReadFile(filepath.Join(dir, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "spec.yaml")
	src := strings.Replace(string(b), "command: [python3, server.py]", "command: [pyhton3-no-such, server.py]", 1)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", spec}, {"validate", "--live", spec}} {
		code, out, _ := thea(t, args...)
		if code != 1 || !strings.Contains(out, `toolsets.cart.command[0]: command "pyhton3-no-such" is not found on PATH`) {
			t.Errorf("%v: exit %d, want 1 naming the command:\n%s", args, code, out)
		}
	}
}

// lastObservation is the last Observation of a run log.
func lastObservation(evs []runlog.Event) *world.Observation {
	var last *world.Observation
	for _, ev := range evs {
		if ev.Kind == runlog.EventObservation && ev.Observation != nil {
			last = ev.Observation
		}
	}
	return last
}

// The household example checked live: its builtin toolset lists its tools
// without a session, the simulator (this test binary, `sim serve`) answers
// the observation and clearance calls within the contract.
func TestValidateLiveHousehold(t *testing.T) {
	code, out, errs := thea(t, "validate", "--live", "../../../examples/household/spec.cue")
	if code != 0 || out != "spec ok: 19 rules compiled, 7 tests passed, back-ends checked live\n" {
		t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}
