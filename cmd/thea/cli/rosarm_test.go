package cli_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The ROS arm example (examples/ros-arm) end to end, against the fake arm
// in a real subprocess (`thea sim rosbridge -robot arm`), its world the
// fake's: the mug's detection is where the fake's mug is (on the table,
// following the tool frame while held, in the bin once placed).

// rosArmInstruction is the example's task, as `make demo-ros-arm` runs it.
const rosArmInstruction = "Put the mug in the bin, then move the arm home."

// rosArmCopy copies examples/ros-arm into a temp folder, its url pointed at
// a fake arm started for the test (with the fake's fault flags); it returns
// the spec's path and the URL.
func rosArmCopy(t *testing.T, faults ...string) (spec, url string) {
	t.Helper()
	url = startSim(t, append([]string{"-robot", "arm", "-arm-motion", "300ms"}, faults...)...)
	dir := copyExample(t, "ros-arm")
	spec = filepath.Join(dir, "spec.cue")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), `"ws://127.0.0.1:9090"`, `"`+url+`"`, 1)
	if text == string(b) {
		t.Fatal("the example's url is not ws://127.0.0.1:9090")
	}
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec, url
}

// briefLine is the line of a Brief that starts with prefix ("- obj:mug:").
func briefLine(brief, prefix string) string {
	for line := range strings.Lines(brief) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// observationAt is the harness's observation of a turn (the one the model
// decided on).
func observationAt(evs []runlog.Event, turn int) *world.Observation {
	for _, ev := range evs {
		if ev.Kind == runlog.EventObservation && ev.Turn == turn && ev.Tool != "" && ev.Observation != nil {
			return ev.Observation
		}
	}
	return nil
}

// detection is the observation's detection of a name.
func detection(obs *world.Observation, name string) *world.Detection {
	if obs == nil {
		return nil
	}
	for i := range obs.Detections {
		if obs.Detections[i].Name == name {
			return &obs.Detections[i]
		}
	}
	return nil
}

// The example validates as written and live against the fake arm's graph
// (every topic, action and service with its type, every field a goal
// builds or an expr reads), with no warning.
func TestROSArmExampleValidates(t *testing.T) {
	spec, _ := rosArmCopy(t)
	const ok = "spec ok: 19 rules compiled, 11 tests passed"
	if code, out, errs := thea(t, "validate", spec); code != 0 || out != ok+"\n" {
		t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if code, out, errs := thea(t, "validate", "--live", spec); code != 0 || out != ok+", back-ends checked live\n" {
		t.Fatalf("validate --live: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// The example's scripted pick-and-place, as `make demo-ros-arm` runs it:
// the detected mug is in the Brief on the table, held after the pick (the
// gripper joint's reading), in the bin after the place (the detector sees
// it inside the bin's footprint, and the place's confirmed effect); each
// physical call is judged a success by its check; the joint path home is
// confirmed; the arm never runs two motions at once.
func TestROSArmExampleEpisode(t *testing.T) {
	spec, url := rosArmCopy(t)
	evs := runTask(t, spec, rosArmInstruction)

	var results []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Result != nil {
			if !ev.Result.Success {
				t.Errorf("%s failed: %s", ev.Tool, ev.Result.Reason)
			}
			results = append(results, ev.Tool)
		}
	}
	if want := []string{"pick", "place", "move_joints"}; !slices.Equal(results, want) {
		t.Fatalf("tool results %v, want %v", results, want)
	}
	if got, want := verdicts(evs), []string{"pick success by check", "place success by check", "move_joints success by check"}; !slices.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	if n := countHooks(evs, "confirm_joint_path", "confirm"); n != 1 {
		t.Errorf("the joint path was confirmed %d times, want once", n)
	}
	if done := doneOf(evs); done == nil || done.Reason != runlog.DoneFinal || done.Turns != 4 {
		t.Errorf("done = %+v, want a final answer after 4 turns", done)
	}

	b := briefs(evs)
	// Turn 1: the mug on the table, where the detector saw it; nothing held.
	mug := briefLine(b[1], "- obj:mug:")
	if !strings.Contains(mug, "at (") || !strings.Contains(mug, "[robot.observe/scene t1]") {
		t.Errorf("turn 1 Brief lacks the detected mug:\n%s", b[1])
	}
	if !strings.Contains(briefLine(b[1], "- robot:"), "holding nothing [robot.observe t1]") {
		t.Errorf("turn 1 Brief: the gripper is not empty:\n%s", b[1])
	}
	// Turn 2: held, by the gripper joint's reading of the observation.
	if !strings.Contains(briefLine(b[2], "- robot:"), "holding obj:mug [robot.observe t2]") ||
		!strings.Contains(briefLine(b[2], "- obj:mug:"), "held by robot") {
		t.Errorf("turn 2 Brief: the mug is not held:\n%s", b[2])
	}
	// Turn 3: in the bin (the confirmed place), seen there by the detector.
	mug = briefLine(b[3], "- obj:mug:")
	if !strings.Contains(mug, "in obj:bin [place ✓ t2]") || !strings.Contains(mug, "[robot.observe/scene t3]") ||
		!strings.Contains(briefLine(b[3], "- robot:"), "holding nothing [robot.observe t3]") {
		t.Errorf("turn 3 Brief: the mug is not in the bin:\n%s", b[3])
	}

	// The detections follow the fake's world: the mug on the table, then
	// with the tool frame, then inside the bin's footprint.
	table := detection(observationAt(evs, 1), "mug")
	held := observationAt(evs, 2)
	inBin, bin := detection(observationAt(evs, 3), "mug"), detection(observationAt(evs, 3), "bin")
	switch {
	case table == nil || table.Position == nil || math.Abs(table.Position.X-0.45) > 0.01 || math.Abs(table.Position.Y-0.15) > 0.01:
		t.Errorf("turn 1: the mug is not on the table at (0.45, 0.15): %+v", table)
	case held == nil || held.EndEffector == nil || detection(held, "mug") == nil || detection(held, "mug").Position == nil ||
		math.Abs(detection(held, "mug").Position.X-held.EndEffector.X) > 0.01 || math.Abs(detection(held, "mug").Position.Y-held.EndEffector.Y) > 0.01:
		t.Errorf("turn 2: the held mug is not at the tool frame: %+v", held)
	case inBin == nil || bin == nil || inBin.Position == nil || bin.Position == nil ||
		math.Abs(inBin.Position.X-bin.Position.X) > 0.15 || math.Abs(inBin.Position.Y-bin.Position.Y) > 0.125:
		t.Errorf("turn 3: the mug %+v is not in the bin %+v", inBin, bin)
	}

	st := dialCell(t, url).state()
	if st.Arm.Mug != "bin" || st.MaxMotions != 1 || st.GoalsSucceeded != 3 || st.Arm.GoalsWhileCurtainBroken != 0 {
		t.Fatalf("fake arm: mug %q, most motions at once %d, goals succeeded %d, goals while the curtain was broken %d",
			st.Arm.Mug, st.MaxMotions, st.GoalsSucceeded, st.Arm.GoalsWhileCurtainBroken)
	}
}
