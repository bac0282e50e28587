package rosbridge_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// boundedSection declares goals built from a model's argument the way an
// attacker would like them: repeated, repeated twice, passed on whole.
const boundedSection = `{
  "tools": {
    "repeat_label": {
      "description": "A goal whose behavior tree repeats the label.",
      "args": {"label": {"type": "string"}},
      "action": {"name": "/navigate_to_pose", "type": "nav2_msgs/action/NavigateToPose",
        "goal": "{pose: {header: {frame_id: 'map'}, pose: {position: {x: 0.0, y: 0.0, z: 0.0}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}}, behavior_tree: repeat(args.label, 100000)}"}
    },
    "nested_repeat": {
      "description": "A goal whose behavior tree repeats a repeat of the label.",
      "args": {"label": {"type": "string"}},
      "action": {"name": "/navigate_to_pose", "type": "nav2_msgs/action/NavigateToPose",
        "goal": "{pose: {header: {frame_id: 'map'}, pose: {position: {x: 0.0, y: 0.0, z: 0.0}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}}, behavior_tree: repeat(repeat(args.label, 20000), 20000)}"}
    },
    "pass_label": {
      "description": "A goal whose behavior tree is the label.",
      "args": {"label": {"type": "string"}},
      "action": {"name": "/navigate_to_pose", "type": "nav2_msgs/action/NavigateToPose",
        "goal": "{pose: {header: {frame_id: 'map'}, pose: {position: {x: 0.0, y: 0.0, z: 0.0}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}}, behavior_tree: args.label}"}
    },
    "say": {
      "description": "Publish the label for a moment.",
      "args": {"label": {"type": "string"}},
      "publish": {"topic": "/say", "type": "std_msgs/msg/String", "rate_hz": 10,
        "message": "{data: args.label + args.label}", "zero": "{data: ''}", "duration": "0.05"}
    }
  }
}`

func labelArgs(t *testing.T, label string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"label": label})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGoalExpressionsBounded: goals and messages built from the model's
// arguments are held to the bound every expr shares. A 64 KiB label
// repeated 100,000 times (6.5 GB), a nested repeat and a 2 MB argument
// passed on whole are each refused before they are built, the process
// lives, the model reads which expression and which bound, and no goal or
// message reaches the robot.
func TestGoalExpressionsBounded(t *testing.T) {
	p := fake(t)
	r := startSection(t, p.URL, section(t, boundedSection))
	for _, tc := range []struct {
		tool, label string
		want        []string
	}{
		{"pass_label", strings.Repeat("y", 2<<20), []string{"pass_label", "behavior_tree: args.label", "65536 bytes"}},
		{"nested_repeat", "ab", []string{"nested_repeat", "repeat(repeat(args.label, 20000), 20000)", "65536 bytes"}},
		{"say", strings.Repeat("z", 40<<10), []string{"say", "args.label + args.label", "65536 bytes"}},
		{"repeat_label", strings.Repeat("x", 64<<10), []string{"repeat_label", "repeat(args.label, 100000)", "65536 bytes"}},
	} {
		// The cases run in this order so that, without the bound, the test
		// fails on the 2 MB goal before it tries the 6.5 GB one.
		env := r.call(t, tc.tool, labelArgs(t, tc.label))
		wantFailure(t, env, tc.want...)
		if len(env.Reason) > 1024 {
			t.Fatalf("%s: the refusal is %d bytes long", tc.tool, len(env.Reason))
		}
	}
	st := state(t, p.URL)
	if st.GoalsReceived != 0 {
		t.Fatalf("%d goals reached the robot", st.GoalsReceived)
	}
	// A goal within the bound still goes.
	wantSuccess(t, r.call(t, "pass_label", labelArgs(t, "")))
	if st := state(t, p.URL); st.GoalsReceived != 1 {
		t.Fatalf("the goal within the bound did not reach the robot: %d goals", st.GoalsReceived)
	}
}
