package rosbridge_test

import (
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// moveArm is a trajectory tool for the example spec, on the fake's echo
// FollowJointTrajectory server; its goal builds the points by map().
const moveArm = `move_arm: {
					description: "Follow a joint trajectory."
					args: points: {type: "array", max_items: 20, items: {type: "object", properties: {positions: {type: "array", max_items: 6, items: type: "number"}, time_s: type: "number"}}}
					action: {
						name: "/echo_controller/follow_joint_trajectory"
						type: "control_msgs/action/FollowJointTrajectory"
						goal: "{trajectory: {points: map(args.points, ({positions: #.positions, time_from_start: {sec: int(#.time_s)}}))}}"
					}
				}
				`

// exampleWithArm is the TurtleBot example against url, with moveArm.
func exampleWithArm(t *testing.T, url string) string {
	t.Helper()
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	spec := strings.ReplaceAll(string(src), "ws://127.0.0.1:9090", url)
	if !strings.Contains(spec, "\t\t\ttools: {\n\t\t\t\t") {
		t.Fatal("the example spec no longer has its tools block")
	}
	return strings.Replace(spec, "\t\t\ttools: {\n\t\t\t\t", "\t\t\ttools: {\n\t\t\t\t"+moveArm, 1)
}

// lineOf is the line of the last line of spec containing s.
func lineOf(spec, s string) int {
	line := 0
	for i, l := range strings.Split(spec, "\n") {
		if strings.Contains(l, s) {
			line = i + 1
		}
	}
	return line
}

// What --live cannot check it says, at the line: against a graph without
// rosapi/action_goal_details each goal is a warning at its goal, not a
// silent pass; against the full graph nothing is said, and the points a
// goal builds by map() are checked like any map literal.
func TestLiveWarnsWhereItCannotCheck(t *testing.T) {
	full, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = full.Close() })
	spec := exampleWithArm(t, full.URL())
	if diags := liveAll(t, spec); len(diags) != 0 {
		t.Fatalf("against the full graph: %s", joinDiags(diags))
	}
	typo := strings.Replace(spec, "time_from_start: {sec", "time_from_strt: {sec", 1)
	wantDiag(t, typo, liveAll(t, typo), false, "time_from_strt: {sec", `trajectory_msgs/JointTrajectoryPoint has no field "time_from_strt", which this builds as trajectory.points[].time_from_strt`)

	lacking, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Faults: rosbridgetest.Faults{NoActionDetails: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lacking.Close() })
	spec = exampleWithArm(t, lacking.URL())
	diags := liveAll(t, spec)
	wantDiag(t, spec, diags, true, `goal: """`, "the fields this builds of nav2_msgs/action/NavigateToPose are not checked: rosapi/action_goal_details did not answer")
	wantDiag(t, spec, diags, true, "time_from_start: {sec", "the fields this builds of control_msgs/action/FollowJointTrajectory are not checked")
	if len(diags) != 2 {
		t.Errorf("want the two goals' warnings only, got:\n%s", joinDiags(diags))
	}
}

// wantDiag wants a diagnostic (a warning or an error) containing msg at
// the line of spec containing at.
func wantDiag(t *testing.T, spec string, diags []schema.Diagnostic, warning bool, at, msg string) {
	t.Helper()
	line := lineOf(spec, at)
	for _, d := range diags {
		if d.Pos.Line == line && d.Warning == warning && strings.Contains(d.Message, msg) {
			return
		}
	}
	t.Errorf("no diagnostic (warning %v) at line %d containing %q; got:\n%s", warning, line, msg, joinDiags(diags))
}
