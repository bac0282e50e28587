package scaffold

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

func msg(typ string, fields ...graph.Field) *graph.Message {
	return &graph.Message{Type: typ, Fields: fields}
}

func scalar(name, typ string) graph.Field { return graph.Field{Name: name, Type: typ} }

// armGraph is a tabletop arm's graph, as rosapi would describe it: TF and
// no odometry, no cmd_vel, a raw wrist camera and a compressed scene
// camera, detections, a light curtain, a person distance and a gripper
// range, skill actions judged by their results, a trajectory action and a
// dashboard stop service.
func armGraph() *graph.Graph {
	point := msg("geometry_msgs/Point", scalar("x", "double"), scalar("y", "double"), scalar("z", "double"))
	quat := msg("geometry_msgs/Quaternion", scalar("x", "double"), scalar("y", "double"), scalar("z", "double"), scalar("w", "double"))
	pose := msg("geometry_msgs/Pose", graph.Field{Name: "position", Type: "geometry_msgs/Point", Message: point},
		graph.Field{Name: "orientation", Type: "geometry_msgs/Quaternion", Message: quat})
	header := msg("std_msgs/Header", graph.Field{Name: "stamp", Type: "builtin_interfaces/Time", Message: msg("builtin_interfaces/Time", scalar("sec", "int32"))}, scalar("frame_id", "string"))
	stamped := msg("geometry_msgs/PoseStamped", graph.Field{Name: "header", Type: "std_msgs/Header", Message: header},
		graph.Field{Name: "pose", Type: "geometry_msgs/Pose", Message: pose})
	duration := msg("builtin_interfaces/Duration", scalar("sec", "int32"), scalar("nanosec", "uint32"))
	trajPoint := msg("trajectory_msgs/JointTrajectoryPoint", graph.Field{Name: "positions", Type: "double", Array: true},
		graph.Field{Name: "velocities", Type: "double", Array: true},
		graph.Field{Name: "time_from_start", Type: "builtin_interfaces/Duration", Message: duration})
	return &graph.Graph{
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
		Actions: []graph.Endpoint{
			{Name: "/arm_controller/follow_joint_trajectory", Type: "control_msgs/action/FollowJointTrajectory",
				Goal: msg("control_msgs/FollowJointTrajectory_Goal", graph.Field{Name: "trajectory", Type: "trajectory_msgs/JointTrajectory",
					Message: msg("trajectory_msgs/JointTrajectory", graph.Field{Name: "joint_names", Type: "string", Array: true},
						graph.Field{Name: "points", Type: "trajectory_msgs/JointTrajectoryPoint", Array: true, Message: trajPoint})},
					graph.Field{Name: "goal_time_tolerance", Type: "builtin_interfaces/Duration", Message: duration}),
				Response: msg("control_msgs/FollowJointTrajectory_Result", scalar("error_code", "int32"), scalar("error_string", "string"))},
			{Name: "/gripper_controller/gripper_cmd", Type: "control_msgs/action/GripperCommand",
				Goal: msg("control_msgs/GripperCommand_Goal", graph.Field{Name: "command", Type: "control_msgs/GripperCommand",
					Message: msg("control_msgs/GripperCommand", scalar("position", "double"), scalar("max_effort", "double"))}),
				Response: msg("control_msgs/GripperCommand_Result", scalar("position", "double"), scalar("reached_goal", "bool"), scalar("stalled", "bool"))},
			{Name: "/pick", Type: "pick_msgs/action/Pick",
				Goal:     msg("pick_msgs/Pick_Goal", scalar("object_id", "string"), graph.Field{Name: "grasp_pose", Type: "geometry_msgs/PoseStamped", Message: stamped}),
				Response: msg("pick_msgs/Pick_Result", scalar("success", "bool"), scalar("message", "string"))},
		},
		Services: []graph.Endpoint{
			{Name: "/dashboard_client/stop", Type: "std_srvs/srv/Trigger", Goal: msg("std_srvs/Trigger_Request"),
				Response: msg("std_srvs/Trigger_Response", scalar("success", "bool"), scalar("message", "string"))},
		},
	}
}

// armSamples are the arm's messages while drafting: TF (world → base_link
// static, base_link → tool0, tool0 → camera_link), the joints with the
// gripper open, the detector in the camera's frame, the curtain clear.
func armSamples(g *graph.Graph) *sampled {
	tf := func(pairs ...string) json.RawMessage {
		var trs []string
		for i := 0; i+1 < len(pairs); i += 2 {
			trs = append(trs, fmt.Sprintf(`{"header": {"frame_id": %q}, "child_frame_id": %q}`, pairs[i], pairs[i+1]))
		}
		return json.RawMessage(`{"transforms": [` + strings.Join(trs, ",") + `]}`)
	}
	return readSamples(g.Topics, map[string][]json.RawMessage{
		"/tf_static":           {tf("world", "base_link", "tool0", "camera_link")},
		"/tf":                  {tf("base_link", "tool0"), tf("/base_link", "tool0", "x\ny", "z")},
		"/joint_states":        {json.RawMessage(`{"name": ["shoulder_pan_joint", "elbow_joint", "finger_joint", "bad'name"], "position": [0, 1.5, 0.04, 1]}`)},
		"/detections":          {json.RawMessage(`{"header": {"frame_id": "camera_link"}, "detections": []}`)},
		"/light_curtain/clear": {json.RawMessage(`{"data": true}`)},
	})
}

// loadDraft writes d and loads it as `thea validate` does: cleanly, its
// rule tests passing.
func loadDraft(t *testing.T, d *draft) (*schema.Spec, string) {
	t.Helper()
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
	if len(s.Warnings) > 0 {
		t.Fatalf("the draft loads with warnings: %v\n%s", s.Warnings, b)
	}
	if fails := policies.RunRuleTests(t.Context(), s, nil); len(fails) > 0 {
		t.Fatalf("rule tests (%d): %v\n%s", len(s.Tests), fails, b)
	}
	return s, string(b)
}

func wantAll(t *testing.T, spec string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %s", want)
		}
	}
}

// An arm's draft from its graph and what it sent while drafting: cameras
// raw and compressed, readings from a Bool (its polarity from its name), a
// Float32 and a Range, no cmd_vel, the stop service; perception from TF
// (the base in world, the tool in the base, detections placed in world),
// the joints and the gripper's joint as held; the trajectory a tool of
// structured arguments (its points, its joint names defaulting to the
// arm's), actions judged by their results; it loads and its rule tests
// pass.
func TestDraftArmGraph(t *testing.T) {
	g := armGraph()
	s, spec := loadDraft(t, newDraft("arm", "ws://arm.local:9090", "", g, armSamples(g)))
	wantAll(t, spec,
		`scene_camera: topic: "/scene_camera/image_raw/compressed"`,
		`wrist_camera: {topic: "/wrist_camera/image_raw", type: "sensor_msgs/msg/Image"}`,
		`rule: "!readings.light_curtain_clear"`,
		`rule: "readings.gripper_range < 1.0"`,
		"a Range with no return sends inf",
		`stop: {service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger"}}`,
		`tf: {}`,
		`pose: {tf: {parent: "world", child: "base_link"}}`,
		`end_effector: {tf: {parent: "base_link", child: "tool0"}}`,
		`joints: {topic: "/joint_states"}`,
		`detections: {topic: "/detections", type: "vision_msgs/msg/Detection3DArray", frame: "world"}`,
		"(in camera_link while drafting) are given in world through TF",
		`held: {topic: "/joint_states", type: "sensor_msgs/msg/JointState", value: "let i = findIndex(msg.name, # == 'finger_joint'); i < 0 || msg.position[i] == nil ? nil : (abs(msg.position[i] - 0.04) > 0.005 ? 'something' : '')"}`,
		`scene_graph: {enabled: true, frame: "world"}`,
		`"scene_brief"`,
		`frames: [{name: "world", description: "the world frame, metres"}, {name: "base_link", description: "the robot's base"}, {name: "tool0", description: "the tool's frame (end_effector)"}]`,
		`points: map(args.trajectory_points, ({positions: #.positions, velocities: (#.velocities ?? []), time_from_start: {sec: int(#.time_from_start_s), nanosec: int((#.time_from_start_s - int(#.time_from_start_s)) * 1e9)}}))`,
		`joint_names: (args.trajectory_joint_names ?? ['shoulder_pan_joint', 'elbow_joint'])`,
		`success: "result.error_code == 0", reason: "result.error_string"`,
		"error_code is not 0 (control_msgs' SUCCESSFUL) is a failure",
		`goal: "{object_id: (args.object_id ?? ''), grasp_pose: {header: {frame_id: 'world'}, pose: {position: {x: args.grasp_pose_x,`,
		`success: "result.success", reason: "result.message"`,
		`dashboard_client_stop: physical: false`,
		`gripper_controller_gripper_cmd: physical: true`,
		`pick: physical: true`,
	)
	if strings.Contains(spec, "clearance") && strings.Contains(spec, "boxed_in") {
		t.Error("a graph with no LaserScan got a clearance gate")
	}
	if strings.Contains(spec, "bad'name") || strings.Contains(spec, "x\\ny") {
		t.Error("a name an expr or a frame cannot take reached the draft")
	}
	// A gripper's result (reached_goal false while it holds) is not a success flag.
	if strings.Contains(spec, "result.reached_goal") {
		t.Error("the gripper is judged by reached_goal")
	}
	if len(s.Tests) != 6 {
		t.Errorf("%d rule tests, want 6", len(s.Tests))
	}
}

// The same graph with nothing heard while drafting (every sampled topic
// silent): the TF pose and the tool frame are pending lookups to finish,
// held is not drafted and says so, the trajectory's joint names are
// required, and it still loads.
func TestDraftArmGraphUnheard(t *testing.T) {
	_, spec := loadDraft(t, newDraft("arm", "ws://arm.local:9090", "", armGraph(), nil))
	wantAll(t, spec,
		"the graph has /tf and no Odometry, but no transform came while drafting",
		`// observation: pose: {tf: {parent: "map", child: "base_link"}}`,
		`// observation: end_effector: {tf: {parent: "base_link", child: "tool0"}}`,
		"held is not drafted: /joint_states named no gripper joint while drafting",
		`joint_names: args.trajectory_joint_names`,
		`detections: {topic: "/detections", type: "vision_msgs/msg/Detection3DArray"}`,
		"positions stay in the detector's frame (unknown while drafting)",
		`rule: "!readings.light_curtain_clear"`,
	)
	if strings.Contains(spec, "\ttf: {}") {
		t.Error("TF declared with no lookup reading it")
	}
}

// With no Odometry and no TF, a PoseStamped whose name says pose is the
// pose (in the frame it came in), one whose name says tool the end
// effector; a goal target's PoseStamped is neither.
func TestDraftPoseStamped(t *testing.T) {
	g := &graph.Graph{Topics: map[string]string{
		"/goal_pose": "geometry_msgs/msg/PoseStamped", "/robot_pose": "geometry_msgs/msg/PoseStamped",
		"/tool_pose": "geometry_msgs/msg/PoseStamped", "/joint_states": "sensor_msgs/msg/JointState",
	}, Services: []graph.Endpoint{{Name: "/halt", Type: "std_srvs/srv/Trigger", Goal: msg("std_srvs/Trigger_Request")}}}
	s := readSamples(g.Topics, map[string][]json.RawMessage{"/robot_pose": {json.RawMessage(`{"header": {"frame_id": "/odom"}}`)}})
	_, spec := loadDraft(t, newDraft("p", "ws://x:9090", "", g, s))
	wantAll(t, spec,
		`pose: {topic: "/robot_pose", type: "geometry_msgs/msg/PoseStamped"}`,
		"the pose reads the PoseStamped /robot_pose (in odom)",
		`end_effector: {topic: "/tool_pose", type: "geometry_msgs/msg/PoseStamped"}`,
		`frames: [{name: "odom", description: "the odom frame, metres"}]`,
	)
	if strings.Contains(spec, "tf:") {
		t.Error("TF declared on a graph without it")
	}
}

// A Bool's polarity: from a whole word of its name (safety is not safe),
// else from its value while drafting, else true is unsafe; a value that
// disagrees with the name is said.
func TestBoolPolarity(t *testing.T) {
	s := &sampled{bools: map[string]bool{"/safety/light_curtain": false, "/cell/curtain": true, "/estop": true, "/zone_ok": false}}
	for _, tc := range []struct {
		topic    string
		safeWhen bool
		review   string
	}{
		{"/safety/light_curtain", false, "it read false while drafting, taken as its value while motion is safe"},
		{"/cell/curtain", true, "it read true while drafting"},
		{"/estop", false, "if the cell was safe then, the polarity is the other way"},
		{"/zone_ok", true, "if the cell was safe then, the polarity is the other way"},
		{"/safety/curtain_clear", true, "Its name reads as true while it is safe"},
		{"/silent", false, "taken to read true when motion is unsafe"},
	} {
		got, review := polarity(tc.topic, s)
		if got != tc.safeWhen || !strings.Contains(review, tc.review) {
			t.Errorf("%s: safe when %v (%s), want %v and %q", tc.topic, got, review, tc.safeWhen, tc.review)
		}
	}
}

// Lists nested past what arguments may nest are left empty and said; the
// rest of the goal is drafted and loads (its arguments pass the kind's
// own checks of depth and bounds).
func TestDraftGoalListsBounded(t *testing.T) {
	leaf := msg("deep_msgs/Leaf", graph.Field{Name: "values", Type: "double", Array: true}, scalar("w", "double"))
	mid := msg("deep_msgs/Mid", graph.Field{Name: "leaves", Type: "deep_msgs/Leaf", Array: true, Message: leaf}, scalar("v", "int32"))
	top := msg("deep_msgs/Top", graph.Field{Name: "mids", Type: "deep_msgs/Mid", Array: true, Message: mid},
		graph.Field{Name: "tags", Type: "string", Array: true}, graph.Field{Name: "stamps", Type: "builtin_interfaces/Time", Array: true})
	g := &graph.Graph{Topics: map[string]string{}, Actions: []graph.Endpoint{{Name: "/deep", Type: "deep_msgs/action/Deep", Goal: top}},
		Services: []graph.Endpoint{{Name: "/halt", Type: "std_srvs/srv/Trigger", Goal: msg("std_srvs/Trigger_Request")}}}
	_, spec := loadDraft(t, newDraft("deep", "ws://x:9090", "", g, nil))
	wantAll(t, spec,
		"mids[].leaves[].values (a list of double) is left empty: no argument can give it here",
		"stamps (a list of builtin_interfaces/Time) is left empty",
		`goal: "{mids: map(args.mids, ({leaves: map(#.leaves, ({w: #.w})), v: #.v})), tags: args.tags}"`,
	)
}

// A graph with nothing a draft can use still gives a spec that loads: a
// toolset with no tools, the review confirmation, and notes saying why.
func TestDraftEmptyGraph(t *testing.T) {
	d := newDraft("empty", "ws://x:9090", "", &graph.Graph{Topics: map[string]string{"/rosout": "rcl_interfaces/msg/Log"},
		Notes: []string{"rosapi did not list the services (Service /rosapi/services does not exist): no service tools drafted"}}, nil)
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
