package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// rosToken is the bearer token a rosbridge toolset reads from token_env.
const rosToken = "ros-bearer-0d1e2f3a4b5c"

// dockBrain calls dock once, then ends the task.
type dockBrain struct {
	mu sync.Mutex
	n  int
}

func (b *dockBrain) Generate(context.Context, model.Request) (model.Response, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	if b.n == 1 {
		return model.Response{ToolCalls: []model.ToolCall{{Name: "dock", Arguments: json.RawMessage(`{}`)}}}, nil
	}
	return model.Response{Text: "Could not dock."}, nil
}

// No secret_env: token_env alone makes the token a secret.
const rosTokenSpec = `name: rostoken
model: {provider: openai, name: e2e-model, base_url: "%s/v1", api_key_env: THEA_ROS_KEY, max_tokens: 1024, timeout: %s, retries: 0}
embodiment:
  name: turtlebot
  cameras: []
  frames: [{name: map}]
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
observation: {tool: observe}
toolsets:
  core: {kind: builtin}
  robot:
    kind: rosbridge
    url: "%s"
    start_timeout: %[2]s
    timeout: %[2]s
    rosbridge:
      token_env: THEA_ROS_TOKEN
      tools:
        dock:
          description: "Dock on the charger."
          physical: false
          service: {name: /dock, type: std_srvs/srv/Trigger, success: response.success, reason: response.message}
      observation:
        max_age: %[2]s
        pose: {topic: /odom}
        state:
          frame: {topic: /odom, type: nav_msgs/msg/Odometry, value: "msg.header.frame_id + ' ' + msg.child_frame_id"}
tools:
  observe: {hidden: true}
loop: {stages: [task_notes, observe, compact]}
user: {channel: none}
`

// A proxy in front of rosbridge echoes the bearer token (a real WebSocket
// server): in a service's message that becomes the tool's reason, and in
// the frame ids of the odometry the observation reads. token_env alone
// (no secret_env) makes the token a secret: it is in no line of the trace,
// of --json or of the run log, and in no model request.
func TestRosbridgeTokenIsASecret(t *testing.T) {
	t.Setenv("THEA_ROS_KEY", key)
	t.Setenv("THEA_ROS_TOKEN", rosToken)
	ros, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Token: rosToken, Faults: rosbridgetest.Faults{EchoToken: true}})
	must(t, err)
	t.Cleanup(func() { _ = ros.Close() })
	work := t.TempDir()
	spec := filepath.Join(work, "spec.yaml")
	runs := filepath.Join(work, "runs")
	outputs := map[string]string{}
	var bodies [][]byte
	for _, flag := range []string{"--json", "--verbose"} {
		srv, url := serveWire(t, openaiWire(), &dockBrain{})
		must(t, os.WriteFile(spec, fmt.Appendf(nil, rosTokenSpec, url, testtime.Scale(10*time.Second), ros.URL()), 0o600))
		var out, errb bytes.Buffer
		code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, []string{"run", flag, "--spec", spec, "--run-log", runs, "dock"})
		if code != 0 {
			t.Fatalf("thea run %s: exit %d\nstdout:\n%s\nstderr:\n%s", flag, code, out.String(), errb.String())
		}
		outputs[flag+" stdout"], outputs[flag+" stderr"] = out.String(), errb.String()
		srv.mu.Lock()
		bodies = append(bodies, srv.bodies...)
		srv.mu.Unlock()
	}
	for name, s := range outputs {
		if strings.Contains(s, rosToken) {
			t.Errorf("%s carries the token:\n%s", name, s)
		}
	}
	// The proxy did echo it, and what it echoed is shown redacted.
	if !strings.Contains(outputs["--json stdout"], "proxy: session Bearer [redacted] may not dock") ||
		!strings.Contains(outputs["--json stdout"], "odom:[redacted]") {
		t.Errorf("--json lacks the redacted reason and frame id:\n%s", outputs["--json stdout"])
	}
	if len(bodies) < 4 {
		t.Fatalf("%d model requests, want at least 4", len(bodies))
	}
	for i, b := range bodies {
		if strings.Contains(string(b), rosToken) {
			t.Errorf("model request %d carries the token", i+1)
		}
	}
	files := eachFile(t, runs, func(p, name string, b []byte) {
		if strings.Contains(name+string(b), rosToken) {
			t.Errorf("%s carries the token", p)
		}
	})
	if files == 0 {
		t.Fatal("no run log written")
	}
}
