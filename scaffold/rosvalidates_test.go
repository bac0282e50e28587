package scaffold_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// Each graph below once gave a draft that did not validate as written;
// draft loads each through schema as `thea validate` does.

// An arm cell with a safety LaserScan and no base tool: the clearance is
// drafted, its base-motion gate (a tag no tool has) is left commented out
// with a REVIEW line.
func TestDraftScanWithoutBaseTool(t *testing.T) {
	spec, _ := draft(t, fake(t, rosbridgetest.Options{Robot: rosbridgetest.RobotArm,
		Graph: rosbridgetest.GraphExtras{Topics: map[string]string{"/safety_scan": "sensor_msgs/msg/LaserScan"}}}))
	for _, want := range []string{
		`clearance: {topic: "/safety_scan", max_age: "1s"}`,
		"// REVIEW: no drafted tool moves a base (tag base_motion), so this clearance gate is left out",
		`// {name: "boxed_in", when: "'base_motion' in tool.tags"`,
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q:\n%s", want, spec)
		}
	}
}

// A robot service named as a core toolset tool (/notify_user) is drafted
// under the toolset's prefix, with a REVIEW line saying why.
func TestDraftServiceNamedAsCoreTool(t *testing.T) {
	spec, _ := draft(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{Services: map[string]string{
		"/notify_user": "std_srvs/srv/Trigger", "/load_skill": "std_srvs/srv/Trigger"}}}))
	for _, want := range []string{
		"robot_notify_user: {",
		`service: {name: "/notify_user", type: "std_srvs/srv/Trigger"`,
		"robot_load_skill: {",
		"// REVIEW: /notify_user is drafted as the tool robot_notify_user: notify_user is a tool of the core toolset",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q", want)
		}
	}
}

// 64 services whose requests have 512 fields each: the draft stays within
// a spec file's size, each tool's notes on the fields it leaves at their
// defaults summarized after the first few.
func TestDraftHugeDefinitions(t *testing.T) {
	services := map[string]string{}
	for i := range 64 {
		services[fmt.Sprintf("/cell_%02d/configure", i)] = "big_msgs/srv/Configure"
	}
	wide := func(typ string) []rosbridgetest.TypeDef {
		d := rosbridgetest.TypeDef{Type: typ}
		for i := range 512 {
			d.FieldNames = append(d.FieldNames, fmt.Sprintf("a_parameter_with_a_rather_long_descriptive_name_%03d", i))
			d.FieldTypes = append(d.FieldTypes, "float64")
			d.FieldArrayLen = append(d.FieldArrayLen, -1)
		}
		return []rosbridgetest.TypeDef{d}
	}
	spec, got := draft(t, fake(t, rosbridgetest.Options{Typedefs: wide, Graph: rosbridgetest.GraphExtras{Services: services}}))
	if int64(len(spec)) > readfile.Spec.Max()/4 {
		t.Errorf("the draft is %d bytes", len(spec))
	}
	want := "… and 490 more notes like these, left out to keep the draft within a spec file's size: read the definition of /cell_00/configure (big_msgs/srv/Configure)"
	if !strings.Contains(spec, want) {
		t.Errorf("the draft lacks %q", want)
	}
	if got.Tools != 64 {
		t.Errorf("%d tools drafted, want 64", got.Tools)
	}
}

// A topic name with a right-to-left override (and other bidi controls)
// is listed in a comment with each control escaped, never raw.
func TestDraftEscapesBidiInComments(t *testing.T) {
	spec, _ := draft(t, fake(t, rosbridgetest.Options{Graph: rosbridgetest.GraphExtras{Topics: map[string]string{
		"/gate\u202e/status":      "std_msgs/msg/Bool",
		"/lane\u2066\u200f/count": "std_msgs/msg/Bool"}}}))
	for _, r := range []rune{'\u202e', '\u2066', '\u200f'} {
		if strings.ContainsRune(spec, r) {
			t.Errorf("the draft holds U+%04X raw", r)
		}
	}
	for _, want := range []string{`/gate\u202e/status`, `/lane\u2066\u200f/count`} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q", want)
		}
	}
}
