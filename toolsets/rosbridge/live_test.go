package rosbridge_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/livecheck"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// thea validate --live against the fake's rosapi: the example as written
// has no problem; a missing topic, a wrong type and fields the messages
// lack are each a diagnostic at the line that names them.
func TestLiveCheckAgainstRosapi(t *testing.T) {
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	spec := strings.ReplaceAll(string(src), "ws://127.0.0.1:9090", srv.URL())
	if diags := liveDiags(t, spec); len(diags) != 0 {
		t.Fatalf("the example against the fake: %s", joinDiags(diags))
	}
	edits := []edit{
		{`pose: topic: "/odom"`, `pose: topic: "/odm"`, "the running graph has no topic /odm"},
		{`value: "msg.percentage",`, `value: "msg.percentag",`, `sensor_msgs/BatteryState has no field "percentag"`},
		{`type:    "std_srvs/srv/Trigger"`, `type:    "std_srvs/srv/Empty"`, "/dock is a std_srvs/srv/Trigger on the running graph"},
		{`behavior_tree: ''}`, `behavior_tre: ''}`, `has no field "behavior_tre"`},
		{`angular: {x: 0.0, y: 0.0, z: 0.0}}"`, `angular: {x: 0.0, y: 0.0, w: 0.0}}"`, `geometry_msgs/Vector3 has no field "w", which this builds as angular.w`},
		{`type:    "std_msgs/msg/Float32"`, `type:    "std_msgs/msg/Bool"`, "/person_distance is a std_msgs/msg/Float32 on the running graph, not the std_msgs/msg/Bool read here"},
		{`topic:   "/scan"`, `topic:   "/battery_state"`, "/battery_state is a sensor_msgs/msg/BatteryState on the running graph, not the sensor_msgs/msg/LaserScan read here"},
	}
	for _, e := range edits {
		if !strings.Contains(spec, e.old) {
			t.Fatalf("the example spec no longer has %q", e.old)
		}
		spec = strings.Replace(spec, e.old, e.new, 1)
	}
	diags := liveDiags(t, spec)
	lines := strings.Split(spec, "\n")
	for _, e := range edits {
		// A multi-line expr's problem is at its field.
		at := map[string]string{`behavior_tre: ''}`: `goal: """`}[e.new]
		if at == "" {
			at = e.new
		}
		line := 0
		for i, l := range lines {
			if strings.Contains(l, at) {
				line = i + 1
			}
		}
		found := false
		for _, d := range diags {
			if d.Pos.Line == line && strings.Contains(d.Message, e.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no diagnostic at line %d containing %q; got:\n%s", line, e.want, joinDiags(diags))
		}
	}
}

// liveDiags loads spec and checks it live, its errors only; the episode
// is a stand-in.
func liveDiags(t *testing.T, spec string) []schema.Diagnostic {
	t.Helper()
	var out []schema.Diagnostic
	for _, d := range liveAll(t, spec) {
		if !d.Warning {
			out = append(out, d)
		}
	}
	return out
}

// liveAll is liveDiags with the warnings.
func liveAll(t *testing.T, spec string) []schema.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"spec.cue": spec, "episode.yaml": "- text: done\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr bytes.Buffer
	cat, err := components.Default(components.Options{Stdin: strings.NewReader(""), Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	loaded, diags := schema.Load([]string{filepath.Join(dir, "spec.cue")}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: cat.Descriptors()})
	if loaded == nil {
		t.Fatalf("spec: %s", joinDiags(diags))
	}
	return livecheck.Check(t.Context(), loaded, cat, livecheck.Options{Timeout: testtime.Scale(10 * time.Second)})
}
