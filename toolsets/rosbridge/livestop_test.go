package rosbridge_test

import (
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// thea validate --live checks a declared stop like a tool: its service (or
// action) must be on the running graph with the declared type, and a
// publish's topic must have the declared type, each problem at its line.
func TestLiveCheckStop(t *testing.T) {
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Robot: rosbridgetest.RobotArm})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	// The TurtleBot example's tools name the TurtleBot's graph; only the
	// stop's lines are looked at here.
	base := strings.ReplaceAll(string(src), "ws://127.0.0.1:9090", srv.URL())
	const cmdVel = `cmd_vel: "/cmd_vel"`
	if !strings.Contains(base, cmdVel) {
		t.Fatalf("the example spec no longer has %q", cmdVel)
	}
	for _, tc := range []struct{ stop, want string }{
		{`stop: service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger"}`, ""},
		{`stop: service: {name: "/dashboard_client/stopp", type: "std_srvs/srv/Trigger"}`, "the running graph has no service /dashboard_client/stopp"},
		{`stop: service: {name: "/dashboard_client/stop", type: "std_srvs/srv/SetBool"}`, "/dashboard_client/stop is a std_srvs/srv/Trigger on the running graph, not a std_srvs/srv/SetBool"},
		{`stop: action: {name: "/halt", type: "arm_skills/action/Halt"}`, "the running graph has no action server /halt"},
		{`stop: publish: {topic: "/safety/light_curtain", type: "std_msgs/msg/Float32", message: "{data: 1.0}"}`, "/safety/light_curtain is a std_msgs/msg/Bool on the running graph"},
	} {
		spec := strings.Replace(base, cmdVel, tc.stop, 1)
		line := 0
		for i, l := range strings.Split(spec, "\n") {
			if strings.Contains(l, tc.stop) {
				line = i + 1
			}
		}
		found := false
		var stopDiags []string
		for _, d := range liveDiags(t, spec) {
			if d.Pos.Line != line {
				continue
			}
			stopDiags = append(stopDiags, d.Message)
			if tc.want != "" && strings.Contains(d.Message, tc.want) {
				found = true
			}
		}
		switch {
		case tc.want == "" && len(stopDiags) > 0:
			t.Errorf("%s: %v", tc.stop, stopDiags)
		case tc.want != "" && !found:
			t.Errorf("%s: no diagnostic at line %d containing %q; at that line: %v", tc.stop, line, tc.want, stopDiags)
		}
	}
}
