package cli_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// rosArmTopics are the perception topics the fake publishes for this test
// (its -extra file): a vision_msgs Detection3DArray with a mug in the
// wrist camera's frame, and /tf_static (latched) placing that camera in
// the world.
const rosArmTopics = `[
 {"topic": "/detections", "type": "vision_msgs/msg/Detection3DArray", "every": 5, "msg":
  {"header": {"frame_id": "camera_link"}, "detections": [
   {"id": "track-3", "results": [{"hypothesis": {"class_id": "mug", "score": 0.92}}],
    "bbox": {"center": {"position": {"x": 0.5, "y": -0.2, "z": 0.1}, "orientation": {"w": 1}}, "size": {"x": 0.08, "y": 0.08, "z": 0.1}}}]}},
 {"topic": "/tf", "type": "tf2_msgs/msg/TFMessage", "every": 5, "msg": {"transforms": []}},
 {"topic": "/tf_static", "type": "tf2_msgs/msg/TFMessage", "msg":
  {"transforms": [{"header": {"frame_id": "world"}, "child_frame_id": "camera_link",
    "transform": {"translation": {"x": 1, "y": 0, "z": 0.5}, "rotation": {"x": 0, "y": 0, "z": 0.7071067811865476, "w": 0.7071067811865476}}}]}}
]`

const rosArmSpec = `name: ros-arm-perception
description: An arm behind rosbridge whose detector reaches the Scene Graph.
system_prompt: You look at the table and say what is on it.
model: {provider: script, script: episode.yaml, timeout: 30s, retries: 0}
embodiment:
  name: ros-arm
  summary: A tabletop arm with a wrist camera and a 3D detector.
  cameras: [{name: wrist, frame: camera_link, width: 32, height: 24, fov_deg: 70}]
  frames: [{name: world, description: "the table's frame, metres"}]
  limits: {max_translation_m: 0.5, max_rotation_deg: 90, min_clearance_m: 0.1, safety_margin_m: 0.05, max_speed_mps: 0.2}
observation: {tool: robot.observe}
toolsets:
  robot:
    kind: rosbridge
    url: URL
    timeout: 30s
    start_timeout: 10s
    rosbridge:
      tools: {}
      observation:
        max_age: 5s
        tf: {}
        detections:
          wrist: {topic: /detections, type: vision_msgs/msg/Detection3DArray, camera: wrist, frame: world}
tools: {observe: {hidden: true}}
memory: {consolidation: {enabled: false}}
user: {channel: none}
safety: {max_turns: 3}
`

// startSim runs ` + "`thea sim rosbridge`" + ` (this test binary) in a real
// subprocess with args, and returns its URL.
func startSim(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"sim", "rosbridge", "-exit-on-stdin-eof"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close() // the fake stops when its stdin closes
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(testtime.Scale(10 * time.Second)):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("thea sim rosbridge printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// A ROS arm's detector reaches the Scene Graph by spec alone: the fake in
// a real subprocess publishes a Detection3DArray with a mug in the camera
// frame, and the Brief the model reads has the mug, at its place in the
// world frame (the camera's /tf_static transform applied:
// (1,0) + Rz90·(0.5,-0.2) = (1.2, 0.5)).
func TestROSDetectionsReachTheBrief(t *testing.T) {
	dir := t.TempDir()
	topics := filepath.Join(dir, "arm.json")
	if err := os.WriteFile(topics, []byte(rosArmTopics), 0o644); err != nil {
		t.Fatal(err)
	}
	url := startSim(t, "-extra", topics)
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(strings.Replace(rosArmSpec, "URL", url, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	episode := "- text: A mug is on the table.\n"
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(episode), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := thea(t, "validate", "--live", spec); code != 0 || !strings.HasSuffix(out, "back-ends checked live\n") {
		t.Fatalf("validate --live: exit %d\n%s%s", code, out, errs)
	}
	evs := runTask(t, spec, "What is on the table?")
	var obs *runlog.Event
	for i, ev := range evs {
		if ev.Kind == runlog.EventObservation && obs == nil {
			obs = &evs[i]
		}
	}
	if obs == nil || obs.Observation == nil || len(obs.Observation.Detections) != 1 || obs.Observation.Detections[0].Name != "mug" {
		t.Fatalf("the first observation has no mug: %+v", obs)
	}
	b := briefs(evs)[1]
	if !strings.Contains(b, "mug") || strings.Contains(b, "no objects observed yet") {
		t.Fatalf("turn 1 Brief lacks the mug:\n%s", b)
	}
	if !strings.Contains(b, "obj:mug: at (1.20, 0.50) [robot.observe/wrist") {
		t.Errorf("turn 1 Brief lacks the mug's place in the world (1.20, 0.50):\n%s", b)
	}
}
