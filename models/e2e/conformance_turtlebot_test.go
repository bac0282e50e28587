package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// turtlebotScenario is the ROS example (examples/turtlebot) against the
// fake TurtleBot behind rosbridge, over a real WebSocket: Nav2 goals, a
// clamped nudge, docking, with a real model's mistakes on the way.
func turtlebotScenario() scenario {
	return scenario{name: "turtlebot", instructions: []string{"Go to the window at (2, 0.5), then come back and dock."},
		script: map[int][]step{1: {
			{text: "Driving to the window, then nudging.", calls: []rawCall{{"navigate_to", `{"x":"2","y":0.5}`}, {"drive", `{"speed_mps":0.1,"distance_m":0.1}`}}},
			{calls: []rawCall{{"functions.navigate_to", `{"x":2.0,"y":0.5}`}}},
			{reasoning: "The name must be the tool's own.", calls: []rawCall{{"navigate_to", `{"x":2.0,"y":0.5}`}}},
			{text: "Nudging right up to the window.", calls: []rawCall{{"drive", `{"speed_mps":0.1,"distance_m":0.5}`}}},
			{calls: []rawCall{{"robot.navigate_to", `"{\"x\":0.0,\"y\":0.0}"`}}},
			{text: "Back to the dock.", calls: []rawCall{{"navigate_to", `{"x":0.0,"y":0.0}`}}},
			{calls: []rawCall{{"dock", `{}`}}},
			{text: "I went to the window, came back and docked: the robot is charging."},
		}},
		spec: func(t *testing.T) *schema.Spec {
			ros, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{NavSpeed: 2})
			must(t, err)
			t.Cleanup(func() { _ = ros.Close() })
			b, err := os.ReadFile(filepath.Join("..", "..", "examples", "turtlebot", "spec.cue"))
			must(t, err)
			path := filepath.Join(t.TempDir(), "spec.cue")
			must(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "ws://127.0.0.1:9090", ros.URL())), 0o600))
			must(t, os.WriteFile(filepath.Join(filepath.Dir(path), "episode.yaml"), []byte("[]\n"), 0o600))
			c, err := components.Default(components.Options{})
			must(t, err)
			spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: c.Descriptors()})
			if len(diags) > 0 || spec == nil {
				t.Fatalf("turtlebot spec: %v", diags)
			}
			spec.Safety.FailureBudget.Format = 10
			return spec
		}}
}
