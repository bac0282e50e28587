package rosbridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
)

// armTopics are an arm's perception topics for the fake (its -extra
// file): a Detection3DArray with a mug in the camera frame, a JointState
// with the gripper's finger, /tf with the tool frame, /tf_static (latched)
// with the camera and the arm's base in the world, and the gripper's own
// report of what it holds.
const armTopics = `[
 {"topic": "/detections", "type": "vision_msgs/msg/Detection3DArray", "every": 5, "msg":
  {"header": {"frame_id": "camera_link"}, "detections": [
   {"header": {"frame_id": "camera_link"}, "id": "track-3",
    "results": [{"hypothesis": {"class_id": "mug", "score": 0.92}, "pose": {"pose": {"position": {"x": 0, "y": 0, "z": 0}, "orientation": {"w": 1}}}}],
    "bbox": {"center": {"position": {"x": 0.5, "y": -0.2, "z": 0.1}, "orientation": {"w": 1}}, "size": {"x": 0.08, "y": 0.08, "z": 0.1}}}]}},
 {"topic": "/joint_states", "type": "sensor_msgs/msg/JointState", "every": 2, "msg":
  {"name": ["shoulder_pan", "elbow", "finger"], "position": [0.25, -1.5, 0.012], "velocity": [0, 0.1, 0], "effort": []}},
 {"topic": "/gripper/object", "type": "std_msgs/msg/String", "every": 2, "msg": {"data": "unknown"}},
 {"topic": "/tf", "type": "tf2_msgs/msg/TFMessage", "every": 2, "msg":
  {"transforms": [{"header": {"frame_id": "base_link"}, "child_frame_id": "tool0",
    "transform": {"translation": {"x": 0.4, "y": 0, "z": 0.3}, "rotation": {"x": 0, "y": 0, "z": 0.7071067811865476, "w": 0.7071067811865476}}}]}},
 {"topic": "/tf_static", "type": "tf2_msgs/msg/TFMessage", "msg":
  {"transforms": [{"header": {"frame_id": "world"}, "child_frame_id": "base_link",
    "transform": {"translation": {"x": 1, "y": 0, "z": 0.5}, "rotation": {"x": 0, "y": 0, "z": 0.7071067811865476, "w": 0.7071067811865476}}}]}},
 {"topic": "/tf_static", "type": "tf2_msgs/msg/TFMessage", "msg":
  {"transforms": [{"header": {"frame_id": "base_link"}, "child_frame_id": "camera_link",
    "transform": {"translation": {"x": 0, "y": 0, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 1}}}]}}
]`

// armPerception is the observation of an arm declared by spec alone.
const armPerception = `{
  "reconnect": {"initial": "20ms", "max": "200ms"},
  "tools": {},
  "observation": {
    "max_age": "%MAX_AGE%",
    "tf": {},
    "pose": {"tf": {"parent": "world", "child": "base_link"}},
    "detections": {"wrist": {"topic": "/detections", "type": "vision_msgs/msg/Detection3DArray", "camera": "front", "frame": "world"}},
    "held": {"topic": "/gripper/object", "type": "std_msgs/msg/String", "value": "msg.data == 'unknown' ? nil : msg.data"},
    "joints": {"topic": "/joint_states"},
    "end_effector": {"tf": {"parent": "world", "child": "tool0"}},
    "frames": {"camera": {"tf": {"parent": "tool0", "child": "camera_link"}}},
    "state": {"finger_closed": {"topic": "/joint_states", "value": "msg.position[2] < 0.02"}}
  }
}`

func armFake(t *testing.T, topics string) *rosbridgetest.Process {
	t.Helper()
	path := filepath.Join(t.TempDir(), "arm.json")
	if err := os.WriteFile(path, []byte(topics), 0o644); err != nil {
		t.Fatal(err)
	}
	return fake(t, "-extra", path)
}

func armSection(t *testing.T, maxAge string) map[string]any {
	return section(t, strings.ReplaceAll(armPerception, "%MAX_AGE%", maxAge))
}

// The arm's observation from topics alone, against the fake in a real
// subprocess: the mug detected in the camera frame is given in the world
// (camera_link = base_link, which /tf_static puts at (1, 0, 0.5) turned
// 90°: Rz90·(0.5, -0.2) + (1, 0) = (1.2, 0.5)); the pose and the tool frame
// are TF lookups (/tf_static's latched transforms, sent once, kept); the
// joints are the JointState's; the gripper's "unknown" is null: held is
// left out, never "nothing"; every source has its age.
func TestArmObservationFromTopics(t *testing.T) {
	p := armFake(t, armTopics)
	r := startSection(t, p.URL, armSection(t, testtime.Scale(5*time.Second).String()))
	env := r.call(t, "observe", `{}`)
	wantSuccess(t, env)
	var obs world.Observation
	b, _ := json.Marshal(env.Value)
	if err := json.Unmarshal(b, &obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.Detections) != 1 {
		t.Fatalf("detections %+v", obs.Detections)
	}
	mug := obs.Detections[0]
	if mug.Name != "mug" || mug.ID != "track-3" || mug.Score != 0.92 || mug.Camera != "front" || !mug.Visible ||
		mug.Position == nil || *mug.Position != (world.Point{X: 1.2, Y: 0.5}) || mug.Frame != "" {
		t.Fatalf("mug: %+v at %v", mug, mug.Position)
	}
	if obs.Pose == nil || *obs.Pose != (world.Pose{X: 1, Y: 0, ThetaDeg: 90, Frame: "world"}) {
		t.Fatalf("pose: %+v", obs.Pose)
	}
	// tool0 in world: (1,0,0.5) + Rz90·(0.4, 0, 0.3) = (1, 0.4, 0.8), 180°.
	if ee := obs.EndEffector; ee == nil || ee.Frame != "world" || ee.X != 1 || ee.Y != 0.4 || ee.Z != 0.8 || ee.YawDeg != 180 {
		t.Fatalf("end_effector: %+v", obs.EndEffector)
	}
	// camera_link in tool0: Rz(-90)·(-0.4, 0, -0.3) = (0, 0.4, -0.3), -90°.
	if c := obs.Frames["camera"]; c.Frame != "tool0" || c.X != 0 || c.Y != 0.4 || c.Z != -0.3 || c.YawDeg != -90 {
		t.Fatalf("frames.camera: %+v", obs.Frames)
	}
	if obs.Joints["elbow"] != -1.5 || len(obs.Joints) != 3 {
		t.Fatalf("joints: %v", obs.Joints)
	}
	if f := obs.JointStates["finger"]; f.Position != 0.012 || f.Velocity == nil || *f.Velocity != 0 || f.Effort != nil {
		t.Fatalf("joint_states.finger: %+v", f)
	}
	if _, ok := env.Value["held"]; ok {
		t.Fatalf("held %v: the gripper said unknown, so held must be left out", env.Value["held"])
	}
	ages, _ := env.Value["age_s"].(map[string]any)
	for _, src := range []string{"pose", "detections.wrist", "held", "joints", "end_effector", "frames.camera", "state.finger_closed"} {
		if _, ok := ages[src]; !ok {
			t.Errorf("age_s lacks %s: %v", src, ages)
		}
	}
	if ages["pose"] != 0.0 {
		t.Errorf("the pose is a chain of static transforms: age 0, got %v", ages["pose"])
	}
	if s, _ := env.Value["summary"].(string); !strings.Contains(s, "seeing mug") || !strings.Contains(s, "in world") {
		t.Errorf("summary %q", s)
	}
}

// A perception source that is silent fails the observation with its name
// (no held, no detections are made up): here the gripper's topic, held
// silent by the fake before the toolset subscribes.
func TestArmSilentHeldFailsTheObservation(t *testing.T) {
	p := armFake(t, strings.Replace(armTopics, `"msg": {"data": "unknown"}`, `"msg": {"data": "mug"}`, 1))
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: p.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.CallService(ctx, rosbridgetest.ServiceSet, map[string]any{"hold": []string{"/gripper/object"}}); err != nil {
		t.Fatal(err)
	}
	r := startSection(t, p.URL, armSection(t, testtime.Scale(500*time.Millisecond).String()))
	env := r.call(t, "observe", `{}`)
	wantFailure(t, env, "held: no message on /gripper/object")
	if _, err := cl.CallService(ctx, rosbridgetest.ServiceSet, map[string]any{"release": []string{"/gripper/object"}}); err != nil {
		t.Fatal(err)
	}
	// The observation waits (up to max_age) for the topic's next message.
	env = r.call(t, "observe", `{}`)
	wantSuccess(t, env)
	if env.Value["held"] != "mug" {
		t.Fatalf("held %v once the gripper's topic speaks, want mug", env.Value["held"])
	}
}

// A TF lookup whose dynamic transform never came fails the observation
// with the lookup and what the tree has (the static transforms, kept).
func TestArmSilentTFFailsTheLookup(t *testing.T) {
	p := armFake(t, armTopics)
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: p.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.CallService(ctx, rosbridgetest.ServiceSet, map[string]any{"hold": []string{"/tf"}}); err != nil {
		t.Fatal(err)
	}
	r := startSection(t, p.URL, armSection(t, testtime.Scale(500*time.Millisecond).String()))
	wantFailure(t, r.call(t, "observe", `{}`), "end_effector: no transform from world to tool0 in the TF tree (it has ", "world→base_link")
}

// A TF lookup is evidence by default: after a motion, the observation
// needs a transform newer than the motion's end. /tf held silent before
// the motion: the tool frame's lookup fails, naming the motion; the
// static pose (a /tf_static chain) never does.
func TestArmTFLookupIsEvidenceOfAMotion(t *testing.T) {
	p := armFake(t, armTopics)
	rb := armSection(t, testtime.Scale(500*time.Millisecond).String())
	rb["tools"] = map[string]any{"nudge": map[string]any{"description": "A motion.",
		"publish": map[string]any{"topic": "/cmd_vel", "type": "geometry_msgs/msg/Twist", "rate_hz": 20, "duration": "0.05",
			"message": "{linear: {x: 0.0, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}"}}}
	r := startSection(t, p.URL, rb)
	wantSuccess(t, r.call(t, "observe", `{}`))
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: p.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.CallService(ctx, rosbridgetest.ServiceSet, map[string]any{"hold": []string{"/tf"}}); err != nil {
		t.Fatal(err)
	}
	wantSuccess(t, r.call(t, "nudge", `{}`))
	wantFailure(t, r.call(t, "observe", `{}`), "end_effector: no message of tool0 in world on /tf since the last motion ended")
}
