package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// turtlebotWith copies the TurtleBot example for the fake at url with
// tools.navigate_to's `physical: true` replaced by physical (a line, or ""
// to leave the field out) and the episode given; extraTool, when set, is
// added to the rosbridge toolset's tools.
func turtlebotWith(t *testing.T, url, physical, extraTool, episode string) string {
	t.Helper()
	b, err := os.ReadFile("../../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "ws://127.0.0.1:9090", url)
	const nav = "\tnavigate_to: {\n\t\ttags: [\"base_motion\"]\n\t\tphysical:       true\n"
	if !strings.Contains(text, nav) {
		t.Fatalf("the example's tools.navigate_to no longer reads %q", nav)
	}
	text = strings.Replace(text, nav, "\tnavigate_to: {\n\t\ttags: [\"base_motion\"]\n"+physical, 1)
	if extraTool != "" {
		const tools = "\t\t\ttools: {\n"
		if !strings.Contains(text, tools) {
			t.Fatalf("the example's rosbridge section no longer has %q", tools)
		}
		text = strings.Replace(text, tools, tools+extraTool, 1)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(episode), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "spec.cue")
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}

// personStepsNear is a tool of the test that tells the fake (through its
// hidden set service, on the toolset's own socket) that a person stands
// 0.5 m from the robot.
const personStepsNear = `				person_steps_near: {
					description: "test control: a person steps within 0.5 m"
					physical:    false
					service: {name: "/rosbridgetest/set", type: "rosbridgetest/srv/Set", request: "{person_distance: 0.5}"}
				}
`

// A Nav2 goal is a motion whether or not the spec says so: with the
// TurtleBot example's tools.navigate_to not marked physical, its
// person_near hook (when: tool.physical) still fires for the goal, against
// `thea sim rosbridge` in a real subprocess, and blocks it while a person
// is near; before, the hooks read the spec alone and the goal drove on.
func TestHookSeesTransportPhysical(t *testing.T) {
	url := startSim(t)
	episode := `- text: "Someone walks up to the robot."
  tool_calls:
    - name: person_steps_near
      arguments: {}
- text: "To the window."
  tool_calls:
    - name: navigate_to
      arguments: {x: 2.0, y: 0.5}
- text: "I could not go: a person was near."
`
	spec := turtlebotWith(t, url, "", personStepsNear, episode)
	evs := runTask(t, spec, "Go to the window at (2, 0.5).")
	var blocked bool
	var nav *runlog.Envelope
	for _, ev := range evs {
		if ev.Kind == runlog.EventHook && ev.Tool == "navigate_to" && ev.Hook != nil && ev.Hook.Hook == "person_near" {
			blocked = ev.Hook.Decision == runlog.DecisionBlock
		}
		if ev.Kind == runlog.EventToolResult && ev.Tool == "navigate_to" {
			nav = ev.Result
		}
	}
	if !blocked {
		t.Errorf("person_near did not block navigate_to (a rosbridge action the spec does not mark physical)")
	}
	if nav == nil || nav.Success || !strings.Contains(nav.Reason, "A person is within 1 m") {
		t.Fatalf("navigate_to's result %+v, want refused by person_near", nav)
	}
}

// A spec that writes physical: false for an action the transport runs as
// a motion gets a warning from validate --live at that field (the
// transport wins); leaving the field out is no conflict.
func TestValidateLiveWarnsPhysicalFalseForAMotion(t *testing.T) {
	url := startSim(t)
	spec := turtlebotWith(t, url, "\t\tphysical:       false\n", "", "- text: done\n")
	code, out, errs := thea(t, "validate", "--live", spec)
	text, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Index(string(text), "physical:       false") // the line the edit wrote
	line = 1 + strings.Count(string(text)[:line], "\n")
	want := fmt.Sprintf("spec.cue:%d:3: warning: tools.navigate_to.physical: the robot toolset runs navigate_to as a motion", line)
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("validate --live: exit %d, want 0 and %q:\n%s%s", code, want, out, errs)
	}
	spec = turtlebotWith(t, url, "", "", "- text: done\n")
	if code, out, errs := thea(t, "validate", "--live", spec); code != 0 || strings.Contains(out, "warning: tools.navigate_to") {
		t.Fatalf("validate --live without the field: exit %d, want 0 and no warning:\n%s%s", code, out, errs)
	}
}
