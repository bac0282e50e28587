package scaffold_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/thea-harness/thea/scaffold"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// fake starts a fake TurtleBot with o.
func fake(t *testing.T, o rosbridgetest.Options) string {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv.URL()
}

func fromROS(t *testing.T, url, dir string) (scaffold.Drafted, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	// Every topic of the fakes speaks at once but those a test adds to the
	// graph, which keep each draft this long.
	return scaffold.FromROS(ctx, scaffold.FromROSOptions{Name: "bot", URL: url, Dir: dir, SampleWindow: testtime.Scale(time.Second)})
}

// draft drafts from url into a new folder, checks that the spec validates
// as `thea validate` would (its rule tests pass), and returns its text.
func draft(t *testing.T, url string) (string, scaffold.Drafted) {
	t.Helper()
	dir := t.TempDir()
	got, err := fromROS(t, url, dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.cue")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if spec == nil {
		t.Fatalf("the draft does not load: %v\n%s", diags, b)
	}
	if len(spec.Warnings) > 0 {
		t.Errorf("the draft loads with warnings: %v", spec.Warnings)
	}
	if fails := policies.RunRuleTests(t.Context(), spec, nil); len(fails) > 0 {
		t.Fatalf("the draft's rule tests fail: %v\n%s", fails, b)
	}
	return string(b), got
}

// The same graph gives the same file, byte for byte.
func TestDraftIsDeterministic(t *testing.T) {
	url := fake(t, rosbridgetest.Options{})
	a, _ := draft(t, url)
	b, _ := draft(t, url)
	if a != b {
		t.Fatalf("two drafts of one graph differ:\n%s\n----\n%s", a, b)
	}
	for _, want := range []string{
		`cmd_vel: "/cmd_vel"`,
		`cameras: camera: topic: "/camera/image_raw/compressed"`,
		`pose: {topic: "/odom"}`,
		`frames: [{name: "odom", description: "the odom frame, metres"}]`,
		`clearance: {topic: "/scan", max_age: "1s"}`,
		`light_curtain: {topic: "/light_curtain", type: "std_msgs/msg/Bool", max_age: "500ms"}`,
		`rule: "!readings.light_curtain"`,
		`rule: "readings.person_distance < 1.0"`,
		`{name: "review_confirm", when: "tool.physical", action: "confirm"`,
		`service: {name: "/dock", type: "std_srvs/srv/Trigger", success: "response.success", reason: "response.message"}`,
		`pose_x: {type: "number", description: "pose.pose.position.x, metres"}`,
		`navigate_to_pose: {physical: true, tags: ["base_motion"]}`,
	} {
		if !strings.Contains(a, want) {
			t.Errorf("the draft lacks %s", want)
		}
	}
}

// The fake arm's draft is the same twice over, and reads its perception
// from what the arm sent while drafting: the base in world and the tool
// in the base from TF, detections in world, the gripper's finger joint as
// held, the curtain's polarity from its value (its name does not say); a
// String topic that says what is held is preferred to the joint.
func TestDraftArm(t *testing.T) {
	url := fake(t, rosbridgetest.Options{Robot: rosbridgetest.RobotArm})
	a, got := draft(t, url)
	if b, _ := draft(t, url); a != b {
		t.Fatalf("two drafts of one graph differ:\n%s\n----\n%s", a, b)
	}
	for _, want := range []string{
		`pose: {tf: {parent: "world", child: "base_link"}}`,
		`end_effector: {tf: {parent: "base_link", child: "tool0"}}`,
		`detections: {topic: "/detections", type: "vision_msgs/msg/Detection3DArray", frame: "world"}`,
		`held: {topic: "/joint_states", type: "sensor_msgs/msg/JointState", value: "let i = findIndex(msg.name, # == 'finger_joint');`,
		`rule: "readings.safety_light_curtain"`,
		`wrist_camera_optical_frame`,
		`success: "result.success", reason: "result.message"`,
	} {
		if !strings.Contains(a, want) {
			t.Errorf("the draft lacks %s", want)
		}
	}
	if want := []string{"pose from TF (base_link in world)", "joints", "end effector from TF (tool0 in base_link)", "detections from /detections", "held"}; !slices.Equal(got.Perception, want) {
		t.Errorf("perception %q, want %q", got.Perception, want)
	}
	held, _ := draft(t, fake(t, rosbridgetest.Options{Robot: rosbridgetest.RobotArm, Extra: []rosbridgetest.Extra{
		{Topic: "/gripper/held_object", Type: "std_msgs/msg/String", Msg: json.RawMessage(`{"data": ""}`), Every: 5}}}))
	if !strings.Contains(held, `held: {topic: "/gripper/held_object", type: "std_msgs/msg/String", value: "msg.data"}`) {
		t.Errorf("held does not read the topic that says it:\n%s", held)
	}
}

// Names a spec cannot declare are left out and listed (made safe for a
// comment), names that sanitise alike stay apart, keywords are not keys,
// an e-stop becomes a reading and a pending stop, a stop service a
// non-physical tool and a pending stop, a service rosapi cannot describe a
// pending tool.
func TestDraftWeirdNames(t *testing.T) {
	spec, got := draft(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{
		Topics: map[string]string{
			"/caméra/image_raw/compressed": "sensor_msgs/msg/CompressedImage",
			"/front\nfake: 1":              "std_msgs/msg/Bool",
			"/odd_type":                    "not a type",
			"/a/b_c":                       "std_msgs/msg/Bool",
			"/a_b/c":                       "std_msgs/msg/Bool",
			"/if":                          "std_msgs/Bool",
			"/safety/estop":                "std_msgs/msg/Bool",
			"/motor_temperature":           "std_msgs/msg/Float32",
			"/camera/depth/image_raw":      "sensor_msgs/msg/Image",
			"/wrist/color/image_raw":       "sensor_msgs/msg/Image",
			"/" + strings.Repeat("x", 300): "std_msgs/msg/Bool",
		},
		Services: map[string]string{
			"/dashboard_client/stop": "std_srvs/srv/Trigger",
			"/weird":                 "custom_msgs/srv/Unknown",
			"/bad name":              "std_srvs/srv/Trigger",
		},
	}}))
	for _, want := range []string{
		"/caméra/image_raw/compressed", `/front?fake: 1`, "/odd_type", // listed as left out
		"a_b_c: {topic: \"/a/b_c\"", "a_b_c_2: {topic: \"/a_b/c\"",
		"if_2: {topic: \"/if\", type: \"std_msgs/msg/Bool\"",
		`rule: "readings.safety_estop"`,
		`// stop: publish: {topic: "/safety/estop", type: "std_msgs/msg/Bool", message: "{data: true}"}`,
		`stop: {service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger"}}`,
		`dashboard_client_stop: physical: false`,
		"the service /weird was not drafted", "// weird: {description:",
		"the service /bad name was not drafted: its name cannot be declared",
		"/motor_temperature", // a number that does not say distance: listed
		`wrist_color: {topic: "/wrist/color/image_raw", type: "sensor_msgs/msg/Image"}`,
		"depth image topics are not drafted as cameras: /camera/depth/image_raw",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q", want)
		}
	}
	if strings.Contains(spec, "\nfake: 1") {
		t.Error("a topic's newline reached the file")
	}
	if got.Readings != 7 {
		t.Errorf("%d readings drafted, want 7", got.Readings)
	}
}

// 5,000 topics and 5,000 services: the draft is bounded (16 readings, 64
// endpoints looked up) and says what it left out.
func TestDraftHugeGraph(t *testing.T) {
	topics := map[string]string{}
	services := map[string]string{}
	for i := range 5000 {
		topics[fmt.Sprintf("/cell_%04d/contact", i)] = "std_msgs/msg/Bool"
		services[fmt.Sprintf("/cell_%04d/reset", i)] = "std_srvs/srv/Trigger"
	}
	spec, got := draft(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{Topics: topics, Services: services}}))
	if got.Readings != 16 || got.Tools != 64 {
		t.Errorf("drafted %d readings and %d tools, want 16 and 64", got.Readings, got.Tools)
	}
	for _, want := range []string{"4986 more safety reading candidates than the 16 drafted", "the first 64 (by name) were read"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q", want)
		}
	}
	if len(spec) > 128<<10 {
		t.Errorf("the draft is %d bytes", len(spec))
	}
}

// A definition that names itself (through another) is followed to a bound
// and cut: the goal is drafted with the fields before the cycle.
func TestDraftTypedefCycle(t *testing.T) {
	defs := []rosbridgetest.TypeDef{
		{Type: "loop_msgs/A", FieldNames: []string{"x", "b"}, FieldTypes: []string{"double", "loop_msgs/B"}, FieldArrayLen: []int{-1, -1}},
		{Type: "loop_msgs/B", FieldNames: []string{"y", "a"}, FieldTypes: []string{"double", "loop_msgs/A"}, FieldArrayLen: []int{-1, -1}},
	}
	spec, _ := draft(t, fake(t, rosbridgetest.Options{Typedefs: func(string) []rosbridgetest.TypeDef { return defs }}))
	for _, want := range []string{`goal: "{x: args.x, b: {y: args.b_y}}"`, "b.a (loop_msgs/A) could not be followed"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q", want)
		}
	}
}

// A rosapi without the action services drafts no action, and says so; a
// rosapi that cannot list topics is an error that writes nothing.
func TestDraftMissingRosapi(t *testing.T) {
	spec, got := draft(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{Without: []string{"/rosapi/action_servers"}}}))
	// The tools are the TurtleBot's two services: /dock and /reset_world.
	if got.Tools != 2 || !strings.Contains(spec, "rosapi did not list the action servers") {
		t.Errorf("%d tools; the draft:\n%s", got.Tools, spec)
	}
	dir := t.TempDir()
	_, err := fromROS(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{Without: []string{"/rosapi/topics"}}}), dir)
	if err == nil || !strings.Contains(err.Error(), "rosapi did not list the topics (is the rosapi node running?") {
		t.Fatalf("err %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed draft wrote %v", entries)
	}
}
