package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// liveTurtlebot is the overlay a live TurtleBot's episodes take: the
// simulator's reset service as the reset step, and the tolerances of its
// noisy odometry and laser, of reading ages, and of a nudge's timing.
const liveTurtlebot = `package turtlebot

toolsets: robot: rosbridge: tools: reset_world: {
	description: "Put the simulated robot back at the dock."
	service: {name: "/reset_world", type: "std_srvs/srv/Empty"}
}
tools: reset_world: hidden: true

episodes: {
	reset: {tool: "reset_world", args: []}
	tolerance: {
		number: TOLERANCE
		age:    "2s"
		fields: {
			"state.battery": 0.01
			"seconds":       0.5
			"published":     5
		}
	}
}
`

// noisyScript drives to the window, nudges forward (through the clamp
// hook) and comes back: no dock, whose verdict reads a 1 Hz battery topic.
const noisyScript = `- text: "To the window with Nav2."
  tool_calls:
    - name: navigate_to
      arguments: {x: 2.0, y: 0.5}
- text: "A nudge forward."
  tool_calls:
    - name: drive
      arguments: {speed_mps: 0.1, distance_m: 0.1}
- text: "Back to the origin."
  tool_calls:
    - name: navigate_to
      arguments: {x: 0.0, y: 0.0}
- text: "At the window, nudged, and back at the origin."
`

const noisyInstruction = "Go to the window at (2, 0.5), nudge closer, come back."

// turtlebotLive writes the TurtleBot example against url, with the live
// overlay at tolerance and the noisy script; it returns the spec flags.
func turtlebotLive(t *testing.T, url, tolerance string) (dir string, specFlags []string) {
	t.Helper()
	dir = t.TempDir()
	b, err := os.ReadFile("../../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"spec.cue":     strings.ReplaceAll(string(b), "ws://127.0.0.1:9090", url),
		"live.cue":     strings.Replace(liveTurtlebot, "TOLERANCE", tolerance, 1),
		"episode.yaml": noisyScript,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, []string{"--spec", filepath.Join(dir, "spec.cue"), "--spec", filepath.Join(dir, "live.cue")}
}

// A TurtleBot episode recorded against thea sim rosbridge (a subprocess)
// with sensor noise replays green under thea test on the same, long-lived
// robot (reset between), whose noise now differs; a changed hook rule makes
// it red at the hook, and a tolerance tighter than the noise makes it red
// at the first observation, naming the field, both values and the
// tolerance.
func TestNoisyTurtlebotEpisodeReplays(t *testing.T) {
	url := startSim(t, "-nav-speed", "2", "-noise", "0.005", "-seed", "3")
	dir, flags := turtlebotLive(t, url, "0.05")
	code, out, errs := thea(t, append([]string{"run", "--run-log", t.TempDir(), "--record", "noisy"}, append(flags, noisyInstruction)...)...)
	if code != 0 {
		t.Fatalf("thea run --record: exit %d\n%s\n%s", code, out, errs)
	}
	events := filepath.Join(dir, "episodes", "noisy", runlog.EventsFile)
	if x := recordedPoseX(t, events, 2); x == 2 {
		t.Fatalf("the recording at the window reads x %v exactly: the fake's noise is off", x)
	}

	code, out, errs = thea(t, append([]string{"test"}, flags...)...)
	if code != 0 || !strings.Contains(out, "PASS noisy") {
		t.Fatalf("thea test of the noisy episode: exit %d\n%s\n%s", code, out, errs)
	}

	// The forward nudge's clamp now allows 5 cm, not the free space: the
	// harness does something else than it recorded.
	spec := filepath.Join(dir, "spec.cue")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), `max: "min(limits.max_translation_m, clearance.front - limits.safety_margin_m)"`, `max: "min(0.05, clearance.front - limits.safety_margin_m)"`, 1)
	if changed == string(b) {
		t.Fatal("the example's clamp rule is not where the test changes it")
	}
	if err := os.WriteFile(spec, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = thea(t, append([]string{"test"}, flags...)...)
	if code != 1 || !strings.Contains(out, "FAIL noisy") || !strings.Contains(out, "diverged at turn 2, hook drive") || !strings.Contains(out, "hook.after.distance_m: recorded 0.1, now 0.05") {
		t.Fatalf("thea test after the hook changed: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// Tighter than the noise: the first observation diverges, and says
	// where and by how much.
	if err := os.WriteFile(filepath.Join(dir, "live.cue"), []byte(strings.Replace(liveTurtlebot, "TOLERANCE", "0.00001", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = thea(t, append([]string{"test"}, flags...)...)
	if code != 1 || !strings.Contains(out, "diverged at turn 1, observation robot.observe") || !strings.Contains(out, "(tolerance 1e-05)") || !strings.Contains(out, "observation.") {
		t.Fatalf("thea test with a tolerance below the noise: exit %d\n%s", code, out)
	}
}

// recordedPoseX is the pose.x of the observation of a turn in an events
// file.
func recordedPoseX(t *testing.T, events string, turn int) float64 {
	t.Helper()
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		var ev struct {
			Kind        runlog.EventKind `json:"kind"`
			Turn        int              `json:"turn"`
			Observation struct {
				Pose struct{ X float64 } `json:"pose"`
			} `json:"observation"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind == runlog.EventObservation && ev.Turn == turn {
			return ev.Observation.Pose.X
		}
	}
	t.Fatalf("%s: no observation at turn %d", events, turn)
	return 0
}

// thea eval runs a live robot whose back-end takes no seed: each episode
// after the spec's reset step, which reaches the robot once per episode.
func TestEvalOnLiveRobotResetsBetweenEpisodes(t *testing.T) {
	url := startSim(t, "-nav-speed", "2", "-noise", "0.005", "-seed", "4")
	_, flags := turtlebotLive(t, url, "0.05")
	code, out, errs := thea(t, append([]string{"eval", "--seeds", "1..3", "--format", "json"}, append(flags, noisyInstruction)...)...)
	if code != 0 {
		t.Fatalf("thea eval: exit %d\n%s\n%s", code, out, errs)
	}
	var res struct {
		Summary struct{ Episodes, Successes int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("thea eval --format json: %v\n%s", err, out)
	}
	if res.Summary.Episodes != 3 || res.Summary.Successes != 3 {
		t.Errorf("summary %+v, want 3 of 3\n%s", res.Summary, out)
	}
	if n := simServiceCalls(t, url)[rosbridgetest.ServiceResetWorld]; n != 3 {
		t.Errorf("%s called %d times, want once per episode (3)", rosbridgetest.ServiceResetWorld, n)
	}
	code, _, errs = thea(t, append([]string{"eval", "--seeds", "1..2", "--parallel", "2"}, append(flags, noisyInstruction)...)...)
	if code == 0 || !strings.Contains(errs, "one at a time") {
		t.Errorf("thea eval --parallel 2 with a reset step: exit %d\n%s", code, errs)
	}

	// A reset tool that moves the robot is refused before anything runs:
	// the session does not start.
	dir, flags := turtlebotLive(t, url, "0.05")
	live := filepath.Join(dir, "live.cue")
	if err := os.WriteFile(live, []byte(strings.Replace(mustRead(t, live), `reset: {tool: "reset_world", args: []}`, `reset: {tool: "dock", args: []}`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errs = thea(t, append([]string{"eval", "--seeds", "1..1", "--format", "json"}, append(flags, noisyInstruction)...)...)
	if !strings.Contains(out, `episodes.reset.tool: \"dock\" is physical`) {
		t.Errorf("thea eval with a physical reset tool:\n%s\n%s", out, errs)
	}
	if n := simServiceCalls(t, url)[rosbridgetest.ServiceDock]; n != 0 {
		t.Errorf("the dock service was called %d times", n)
	}
}

// simServiceCalls asks a fake in another process how often each service
// was called.
func simServiceCalls(t *testing.T, url string) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	raw, err := cl.CallService(ctx, rosbridgetest.ServiceState, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st rosbridgetest.State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	return st.ServiceCalls
}
