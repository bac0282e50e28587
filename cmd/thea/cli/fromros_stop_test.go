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
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// graphFile writes a fake's extra graph (its -graph flag).
func graphFile(t *testing.T, g rosbridgetest.GraphExtras) string {
	t.Helper()
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "graph.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// calls is how often the fake saw a service called, however the name was
// sent.
func calls(st rosbridgetest.State, service string) int {
	n := 0
	for name, c := range st.ServiceCalls {
		if strings.TrimPrefix(name, "/") == strings.TrimPrefix(service, "/") {
			n += c
		}
	}
	return n
}

// declared lines of a spec: those that are not comments.
func declared(spec string) string {
	var out []string
	for _, l := range strings.Split(spec, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// stopWhileMoving runs the drafted spec's scripted task in process and
// cancels it (the operator's Ctrl-C) once the fake has a goal moving; it
// returns the task's events.
func stopWhileMoving(t *testing.T, spec, url, instruction string, moving func(rosbridgetest.State) bool) []runlog.Event {
	t.Helper()
	h, _ := rosArmSession(t, spec)
	dial, stopDial := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer stopDial()
	cl, err := wire.Dial(dial, wire.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		// Polls the fake (another process) for the goal it drives.
		for ctx.Err() == nil {
			var st rosbridgetest.State
			raw, err := cl.CallService(ctx, rosbridgetest.ServiceState, nil)
			if err == nil && json.Unmarshal(raw, &st) == nil && moving(st) {
				cancel()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var evs []runlog.Event
	for ev := range h.RunStream(ctx, instruction) {
		evs = append(evs, ev)
	}
	return evs
}

// declaredStop is the task's declared stop event, nil for none.
func declaredStop(evs []runlog.Event) *runlog.Event {
	for i, ev := range evs {
		if ev.Kind == runlog.EventSafety && ev.Safety == rosbridge.SafetyDeclaredStop {
			return &evs[i]
		}
	}
	return nil
}

// A Stretch-class graph in a subprocess (`thea sim rosbridge` with its
// runstop SetBool, its own /stop_the_robot Trigger and a mode switch): the
// draft validates; its stop path is /stop_the_robot, the runstop is no
// tool, the odometry is labelled odom (never map). Run against the fake,
// a navigation whose server ignores its cancel is stopped by the operator:
// the declared stop calls /stop_the_robot and nothing ever calls /runstop
// (whose empty request, data: false, would release it).
func TestInitFromROSStretchStopPath(t *testing.T) {
	graph := graphFile(t, rosbridgetest.GraphExtras{Services: map[string]string{
		"/runstop":                   "std_srvs/srv/SetBool",
		"/stop_the_robot":            "std_srvs/srv/Trigger",
		"/switch_to_navigation_mode": "std_srvs/srv/Trigger",
	}})
	url, spec := draftFromSim(t, "-nav-speed", "0.2", "-ignore-cancel", "-graph", graph)
	if code, out, errs := run(t, "validate", spec); code != 0 || !strings.HasPrefix(out, "spec ok: ") {
		t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := declared(string(b))
	for _, want := range []string{
		`stop: {service: {name: "/stop_the_robot", type: "std_srvs/srv/Trigger"}}`,
		`pose: {topic: "/odom"}`,
		`frames: [{name: "odom", description: "the odom frame, metres"}]`,
		`switch_to_navigation_mode: physical: true`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the draft lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(text, `"/runstop"`) || strings.Contains(text, `name: "map"`) {
		t.Errorf("the draft declares the runstop or labels odometry map:\n%s", b)
	}

	scriptDraft(t, spec, `- tool_calls: [{name: navigate_to_pose, arguments: {pose_x: 3.0, pose_y: 0.0}}]
- text: Stopped.
`, "answers:\n  - {match: Allow navigate_to_pose, answer: \"yes\"}\n")
	evs := stopWhileMoving(t, spec, url, "Drive to the far wall.", func(st rosbridgetest.State) bool { return len(st.Goals) > 0 })
	stop := declaredStop(evs)
	if stop == nil || stop.Stop == nil || !stop.Stop.OK || stop.Stop.Via != runlog.StopViaDeclared {
		t.Fatalf("no successful declared stop in the task's events: %+v", stop)
	}
	st := simState(t, url)
	if calls(st, "/stop_the_robot") == 0 || calls(st, "/runstop") != 0 {
		t.Fatalf("the fake saw %d calls of /stop_the_robot and %d of /runstop (%v)", calls(st, "/stop_the_robot"), calls(st, "/runstop"), st.ServiceCalls)
	}
}

// A UR arm under ros2_control in a subprocess (the fake arm with
// switch_controller, a conveyor's start_stop SetBool and the dashboard's
// unlock_protective_stop): the draft validates; switch_controller and the
// conveyor are confirmed physical tools, unlock_protective_stop is no
// tool, and a pick that ignores its cancel, stopped by the operator, is
// ended by the dashboard's stop, never by switch_controller's no-op.
func TestInitFromROSURStopPath(t *testing.T) {
	graph := graphFile(t, rosbridgetest.GraphExtras{Services: map[string]string{
		"/controller_manager/switch_controller":    "controller_manager_msgs/srv/SwitchController",
		"/conveyor/start_stop":                     "std_srvs/srv/SetBool",
		"/dashboard_client/unlock_protective_stop": "std_srvs/srv/Trigger",
	}})
	url, spec := draftFromSim(t, "-robot", "arm", "-arm-motion", "300ms", "-hang-arm", "-graph", graph)
	if code, out, errs := run(t, "validate", spec); code != 0 || !strings.HasPrefix(out, "spec ok: ") {
		t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := declared(string(b))
	for _, want := range []string{
		`stop: {service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger"}}`,
		`controller_manager_switch_controller: physical: true`,
		`conveyor_start_stop: physical: true`,
		`dashboard_client_stop: physical: false`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the draft lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(text, "unlock_protective_stop") {
		t.Errorf("the draft offers unlock_protective_stop:\n%s", b)
	}

	scriptDraft(t, spec, `- tool_calls: [{name: pick, arguments: {object: mug}}]
- text: Stopped.
`, "answers:\n  - {match: Allow pick, answer: \"yes\"}\n")
	evs := stopWhileMoving(t, spec, url, "Pick up the mug.", func(st rosbridgetest.State) bool { return st.Arm != nil && len(st.Arm.Goals) > 0 })
	stop := declaredStop(evs)
	if stop == nil || stop.Stop == nil || !stop.Stop.OK || stop.Stop.Via != runlog.StopViaDeclared {
		t.Fatalf("no successful declared stop in the task's events: %+v", stop)
	}
	st := simState(t, url)
	if st.Arm.DashboardStops == 0 || st.Arm.Moving || calls(st, "/controller_manager/switch_controller") != 0 {
		t.Fatalf("fake arm: %d dashboard stops, moving %v, %d switch_controller calls", st.Arm.DashboardStops, st.Arm.Moving, calls(st, "/controller_manager/switch_controller"))
	}
}
