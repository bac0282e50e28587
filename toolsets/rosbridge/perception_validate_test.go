package rosbridge_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// The perception section's problems, each at the line the user wrote:
// types, exprs, a lookup without the TF topics, a pose from two places,
// a detector's camera the embodiment lacks.
func TestValidatePerceptionAtSpecPositions(t *testing.T) {
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	const pose = `pose: topic: "/odom"`
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", end_effector: tf: {parent: \"map\", child: \"tool0\"}", "declare observation.tf"},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", held: {topic: \"/gripper\", value: \"msg.data ==\"}", "observation.held.value"},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", detections: d: {topic: \"/objects\", type: \"std_msgs/msg/String\"}", "has no default reading"},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", detections: d: {topic: \"/objects\", type: \"vision_msgs/msg/Detection3DArray\", camera: \"rear\"}", `no camera "rear"`},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", joints: {topic: \"/joint_states\", type: \"sensor_msgs/msg/Imu\"}", "joints are read from sensor_msgs/msg/JointState"},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, pose + ", tf: {}, frames: tool: {topic: \"/tool_pose\", tf: {parent: \"map\", child: \"tool0\"}}", "exactly one of topic"},
	})
	checkDiagnostics(t, string(src), []edit{
		{pose, `pose: {topic: "/odom", type: "sensor_msgs/msg/Imu"}`, "a pose is read from nav_msgs/msg/Odometry or geometry_msgs/msg/PoseStamped"},
	})
}

// --live checks each perception topic's type on the running graph: a
// detector on the odometry topic, joints on the detections topic, the TF
// topic of another type, each at the line that names it.
func TestLivePerceptionTopicTypes(t *testing.T) {
	var extra []rosbridgetest.Extra
	if err := json.Unmarshal([]byte(armTopics), &extra); err != nil {
		t.Fatal(err)
	}
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	spec := strings.ReplaceAll(string(src), "ws://127.0.0.1:9090", srv.URL())
	const pose = `pose: topic: "/odom"`
	// No static broadcaster yet: /tf_static is not on the graph, and that
	// is no problem.
	good := pose + `, tf: static_topic: "/no_static_yet", detections: d: {topic: "/detections", type: "vision_msgs/msg/Detection3DArray"}, joints: topic: "/joint_states", end_effector: tf: {parent: "base_link", child: "tool0"}`
	if diags := liveDiags(t, strings.Replace(spec, pose, good, 1)); len(diags) != 0 {
		t.Fatalf("perception as the graph has it: %s", joinDiags(diags))
	}
	bad := []edit{
		{pose, pose + `, detections: d: {topic: "/odom", type: "vision_msgs/msg/Detection3DArray"}`, "/odom is a nav_msgs/msg/Odometry on the running graph, not the vision_msgs/msg/Detection3DArray read here"},
		{`max_age: "2s"`, `max_age: "2s", joints: topic: "/detections"`, "/detections is a vision_msgs/msg/Detection3DArray on the running graph, not the sensor_msgs/msg/JointState read here"},
		{`cameras: front: topic:`, `tf: {topic: "/rosout", static_topic: "/parameter_events"}, cameras: front: topic:`, "/rosout is a rcl_interfaces/msg/Log on the running graph, not the tf2_msgs/msg/TFMessage read here"},
	}
	for _, e := range bad {
		if !strings.Contains(spec, e.old) {
			t.Fatalf("the example spec no longer has %q", e.old)
		}
		spec = strings.Replace(spec, e.old, e.new, 1)
	}
	diags := liveDiags(t, spec)
	lines := strings.Split(spec, "\n")
	// The static topic of another type too (one missing is no problem: see
	// the good case).
	bad = append(bad, edit{new: `static_topic: "/parameter_events"`, want: "/parameter_events is a rcl_interfaces/msg/ParameterEvent on the running graph, not the tf2_msgs/msg/TFMessage read here"})
	for _, e := range bad {
		line := 0
		for i, l := range lines {
			if strings.Contains(l, e.new) {
				line = i + 1
			}
		}
		found := false
		for _, d := range diags {
			found = found || d.Pos.Line == line && strings.Contains(d.Message, e.want)
		}
		if !found {
			t.Errorf("no diagnostic at line %d containing %q; got:\n%s", line, e.want, joinDiags(diags))
		}
	}
}
