package rosbridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

// TestValidateAtSpecPositions breaks the example spec in every way the kind
// checks and wants each problem at the line the user wrote.
func TestValidateAtSpecPositions(t *testing.T) {
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	checkDiagnostics(t, string(src), []edit{
		{`url:           "ws://127.0.0.1:9090"`, `url:           "http://127.0.0.1:9090"`, "ws:// or wss://"},
		{`name: "/navigate_to_pose"`, `name: "/navigate_to_pose", nme: "x"`, "unknown field"},
		{`type:    "std_srvs/srv/Trigger"`, `type:    "std_srvs/Trigger"`, "std_srvs/Trigger"},
	})
	checkDiagnostics(t, string(src), []edit{
		{`message:  "{linear: {x: args.speed_mps,`, `message:  "{linear: {x: args.speed,`, "reads args.speed, which the tool does not declare"},
		{`cameras: front: topic:`, `cameras: rear: topic:`, `no camera "rear"`},
		{`max_age: "1s"`, `max_age: "1s", sectors: up: {from_deg: 0, to_deg: 10}`, `no clearance sector "up"`},
	})
	checkDiagnostics(t, string(src), []edit{
		{`max_age: "1s"`, `max_age: "1s", compression: "png"`, `compression "png" is refused`},
	})
	checkDiagnostics(t, string(src), []edit{
		{`pose: topic: "/odom"`, `pose: {topic: "/odom", queue_length: 0}`, "queue_length"},
	})
	// Readings and per-source freshness.
	checkDiagnostics(t, string(src), []edit{
		{`type:    "std_msgs/msg/Float32"`, `type:    "sensor_msgs/msg/Imu"`, "sensor_msgs/msg/Imu has no default value"},
	})
	checkDiagnostics(t, string(src), []edit{
		{`value: "msg.percentage", evidence: false, max_age: "5s"}`, `value: "msg.percentage", evidence: "no", max_age: "5s"}`, "evidence"},
	})
	checkDiagnostics(t, string(src), []edit{
		{`max_age: "500ms"`, `max_age: "soon"`, "max_age"},
		{`rule:   "readings.person_distance < 1.0"`, `rule:   "readings.person_distanse < 1.0"`, `readings has no "person_distanse" (did you mean "person_distance"?)`},
	})
	checkDiagnostics(t, string(src), []edit{
		{`rule:   "readings.person_distance < 1.0"`, `rule:   "readings.person_distance"`, "expected bool"},
	})
	// The stopped reading must be a declared reading.
	checkDiagnostics(t, string(src), []edit{
		{`cancel_timeout: "2s"`, `cancel_timeout: "2s", stopped_reading: "is_stopped"`, `"is_stopped" is not a reading`},
	})
}

// edit replaces old by new in a spec and expects a diagnostic containing
// want at new's line.
type edit struct{ old, new, want string }

func checkDiagnostics(t *testing.T, spec string, edits []edit) {
	t.Helper()
	for _, e := range edits {
		if !strings.Contains(spec, e.old) {
			t.Fatalf("the example spec no longer has %q", e.old)
		}
		spec = strings.Replace(spec, e.old, e.new, 1)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.cue")
	for name, text := range map[string]string{"spec.cue": spec, "episode.yaml": "- text: done\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loaded, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if loaded != nil { // only warnings: they are on the spec
		diags = loaded.Warnings
	}
	lines := strings.Split(spec, "\n")
	for _, e := range edits {
		line := 0
		for i, l := range lines {
			if strings.Contains(l, e.new) {
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
	if len(diags) != len(edits) {
		t.Errorf("want %d diagnostics, one per problem; got:\n%s", len(edits), joinDiags(diags))
	}
}

func joinDiags(ds []schema.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// TestValidateWarnsNoStop: physical actions with neither a declared stop
// nor cmd_vel are a warning at the rosbridge block; a declared stop's
// problems are errors at their fields.
func TestValidateWarnsNoStop(t *testing.T) {
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	spec := strings.Replace(string(src), `cmd_vel: "/cmd_vel"`, `// no cmd_vel`, 1)
	checkDiagnostics(t, spec, []edit{
		{`rosbridge: {`, `rosbridge: { // no stop`, "serves physical actions (navigate_to) but declares no stop"},
	})
	checkDiagnostics(t, string(src), []edit{
		{`cmd_vel: "/cmd_vel"`, `stop: service: {name: "/dashboard_client/stop", type: "std_srvs/srv/Trigger", request: "{now: args.now}"}`, "a stop has no arguments"},
	})
}
