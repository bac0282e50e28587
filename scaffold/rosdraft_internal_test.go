package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
)

func msg(typ string, fields ...rosbridge.Field) *rosbridge.Message {
	return &rosbridge.Message{Type: typ, Fields: fields}
}

func scalar(name, typ string) rosbridge.Field { return rosbridge.Field{Name: name, Type: typ} }

// armGraph is a tabletop arm's graph, as rosapi would describe it: TF and
// no odometry, no cmd_vel, a raw wrist camera and a compressed scene
// camera, a light curtain, a person distance and a gripper range, skill
// actions, a trajectory action and a dashboard stop service.
func armGraph() *rosbridge.Graph {
	point := msg("geometry_msgs/Point", scalar("x", "double"), scalar("y", "double"), scalar("z", "double"))
	quat := msg("geometry_msgs/Quaternion", scalar("x", "double"), scalar("y", "double"), scalar("z", "double"), scalar("w", "double"))
	pose := msg("geometry_msgs/Pose", rosbridge.Field{Name: "position", Type: "geometry_msgs/Point", Message: point},
		rosbridge.Field{Name: "orientation", Type: "geometry_msgs/Quaternion", Message: quat})
	header := msg("std_msgs/Header", rosbridge.Field{Name: "stamp", Type: "builtin_interfaces/Time", Message: msg("builtin_interfaces/Time", scalar("sec", "int32"))}, scalar("frame_id", "string"))
	stamped := msg("geometry_msgs/PoseStamped", rosbridge.Field{Name: "header", Type: "std_msgs/Header", Message: header},
		rosbridge.Field{Name: "pose", Type: "geometry_msgs/Pose", Message: pose})
	return &rosbridge.Graph{
		Topics: map[string]string{
			"/tf": "tf2_msgs/msg/TFMessage", "/tf_static": "tf2_msgs/msg/TFMessage",
			"/joint_states":                      "sensor_msgs/msg/JointState",
			"/wrist_camera/image_raw":            "sensor_msgs/msg/Image",
			"/scene_camera/image_raw/compressed": "sensor_msgs/msg/CompressedImage",
			"/detections":                        "vision_msgs/msg/Detection3DArray",
			"/light_curtain/clear":               "std_msgs/msg/Bool",
			"/person_distance":                   "std_msgs/msg/Float32",
			"/gripper/range":                     "sensor_msgs/msg/Range",
		},
		Actions: []rosbridge.Endpoint{
			{Name: "/arm_controller/follow_joint_trajectory", Type: "control_msgs/action/FollowJointTrajectory",
				Goal: msg("control_msgs/FollowJointTrajectory_Goal", rosbridge.Field{Name: "trajectory", Type: "trajectory_msgs/JointTrajectory", Array: false,
					Message: msg("trajectory_msgs/JointTrajectory", rosbridge.Field{Name: "joint_names", Type: "string", Array: true}, rosbridge.Field{Name: "points", Type: "trajectory_msgs/JointTrajectoryPoint", Array: true})},
					rosbridge.Field{Name: "goal_time_tolerance", Type: "builtin_interfaces/Duration", Message: msg("builtin_interfaces/Duration", scalar("sec", "int32"))})},
			{Name: "/gripper_controller/gripper_cmd", Type: "control_msgs/action/GripperCommand",
				Goal: msg("control_msgs/GripperCommand_Goal", rosbridge.Field{Name: "command", Type: "control_msgs/GripperCommand",
					Message: msg("control_msgs/GripperCommand", scalar("position", "double"), scalar("max_effort", "double"))})},
			{Name: "/pick", Type: "pick_msgs/action/Pick",
				Goal: msg("pick_msgs/Pick_Goal", scalar("object_id", "string"), rosbridge.Field{Name: "grasp_pose", Type: "geometry_msgs/PoseStamped", Message: stamped})},
		},
		Services: []rosbridge.Endpoint{
			{Name: "/dashboard_client/stop", Type: "std_srvs/srv/Trigger", Goal: msg("std_srvs/Trigger_Request"),
				Response: msg("std_srvs/Trigger_Response", scalar("success", "bool"), scalar("message", "string"))},
		},
	}
}

// An arm's draft: cameras raw and compressed, readings from a Bool, a
// Float32 and a Range, no cmd_vel (said), the TF pose and the stop service
// as pending blocks, the trajectory action (no scalar can set its goal)
// pending, the gripper and pick tools physical, the stop not; it loads and
// its rule tests pass.
func TestDraftArmGraph(t *testing.T) {
	d := newDraft("arm", "ws://arm.local:9090", "", armGraph())
	b, err := d.cue()
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	for _, want := range []string{
		`scene_camera: topic: "/scene_camera/image_raw/compressed"`,
		`wrist_camera: {topic: "/wrist_camera/image_raw", type: "sensor_msgs/msg/Image"}`,
		`rule: "!readings.light_curtain_clear"`,
		`rule: "readings.gripper_range < 1.0"`,
		"a Range with no return sends inf",
		`// observation: pose: {tf: {parent: "map", child: "base_link"}}`,
		`stop: {service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger"}}`,
		"the action /arm_controller/follow_joint_trajectory was not drafted: no field of its goal can be set from scalar arguments",
		`goal: "{command: {position: args.command_position, max_effort: args.command_max_effort}}"`,
		"{object_id: (args.object_id ?? ''), grasp_pose: {header: {frame_id: 'map'}, pose: {position: {x: args.grasp_pose_x,",
		`dashboard_client_stop: physical: false`,
		`gripper_controller_gripper_cmd: physical: true`,
		`pick: physical: true`,
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %s", want)
		}
	}
	if strings.Contains(spec, "clearance") && strings.Contains(spec, "boxed_in") {
		t.Error("a graph with no LaserScan got a clearance gate")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.cue")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(draftEpisode), 0o644); err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if s == nil || len(s.Warnings) > 0 {
		t.Fatalf("the draft does not load cleanly: %v\n%s", diags, spec)
	}
	if fails := policies.RunRuleTests(t.Context(), s); len(fails) > 0 || len(s.Tests) != 6 {
		t.Fatalf("rule tests (%d): %v\n%s", len(s.Tests), fails, spec)
	}
}

// A graph with nothing a draft can use still gives a spec that loads: a
// toolset with no tools, the review confirmation, and notes saying why.
func TestDraftEmptyGraph(t *testing.T) {
	d := newDraft("empty", "ws://x:9090", "", &rosbridge.Graph{Topics: map[string]string{"/rosout": "rcl_interfaces/msg/Log"},
		Notes: []string{"rosapi did not list the services (Service /rosapi/services does not exist): no service tools drafted"}})
	b, err := d.cue()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.cue")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(draftEpisode), 0o644); err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if s == nil {
		t.Fatalf("the draft does not load: %v\n%s", diags, b)
	}
	if !strings.Contains(string(b), "// REVIEW: rosapi did not list the services") {
		t.Errorf("the note is missing:\n%s", b)
	}
}
