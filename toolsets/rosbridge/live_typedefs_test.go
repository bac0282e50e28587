package rosbridge

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// goalSection declares one action tool whose goal the live check reads
// field by field.
func goalSection() map[string]any {
	return map[string]any{"tools": map[string]any{"go": map[string]any{
		"description": "Drive to a point.",
		"args":        map[string]any{"x": map[string]any{"type": "number"}},
		"action": map[string]any{"name": "/navigate_to_pose", "type": "nav2_msgs/action/NavigateToPose",
			"goal": "{pose: {header: {frame_id: 'map'}, pose: {position: {x: args.x}}}, behavior_tree: ''}"},
	}}}
}

// liveAgainst runs the live check of goalSection against a fake whose
// rosapi answers every *_details call with defs.
func liveAgainst(tb testing.TB, defs func(string) []rosbridgetest.TypeDef) []engine.LiveProblem {
	tb.Helper()
	srv, err := rosbridgetest.Start(tb.Context(), "127.0.0.1:0", rosbridgetest.Options{Typedefs: defs})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = srv.Close() })
	return liveCheckAt(tb, srv.URL())
}

func liveCheckAt(tb testing.TB, url string) []engine.LiveProblem {
	tb.Helper()
	cfg, err := DecodeConfig(goalSection())
	if err != nil {
		tb.Fatal(err)
	}
	tc := engine.ToolsetConfig{Name: "robot", Section: schema.Toolset{Kind: "rosbridge", Config: Section{URL: url, Rosbridge: cfg},
		Timeout: schema.Duration(testtime.Scale(20 * time.Second))}}
	return liveCheck(tb.Context(), tc)
}

// manyTypedefs is a goal's definitions followed by n more, each naming
// the next as a field's type: a rosapi answer as large as a hostile one.
func manyTypedefs(n int) func(string) []rosbridgetest.TypeDef {
	defs := []rosbridgetest.TypeDef{
		{Type: "nav2_msgs/NavigateToPose_Goal", FieldNames: []string{"pose", "behavior_tree"}, FieldTypes: []string{"geometry_msgs/PoseStamped", "string"}, FieldArrayLen: []int{-1, -1}},
		{Type: "geometry_msgs/PoseStamped", FieldNames: []string{"header", "pose"}, FieldTypes: []string{"std_msgs/Header", "geometry_msgs/Pose"}, FieldArrayLen: []int{-1, -1}},
		{Type: "std_msgs/Header", FieldNames: []string{"frame_id", "next"}, FieldTypes: []string{"string", "pkg/T0"}, FieldArrayLen: []int{-1, -1}},
		{Type: "geometry_msgs/Pose", FieldNames: []string{"position"}, FieldTypes: []string{"geometry_msgs/Point"}, FieldArrayLen: []int{-1}},
		{Type: "geometry_msgs/Point", FieldNames: []string{"x", "y", "z"}, FieldTypes: []string{"double", "double", "double"}, FieldArrayLen: []int{-1, -1, -1}},
	}
	for i := range n {
		defs = append(defs, rosbridgetest.TypeDef{Type: fmt.Sprintf("pkg/T%d", i),
			FieldNames: []string{"a", "next"}, FieldTypes: []string{"double", fmt.Sprintf("pkg/T%d", i+1)}, FieldArrayLen: []int{-1, -1}})
	}
	return func(string) []rosbridgetest.TypeDef { return defs }
}

// TestLiveMalformedTypedef: a rosapi TypeDef with fewer fieldtypes than
// fieldnames is a problem naming the type, not a panic.
func TestLiveMalformedTypedef(t *testing.T) {
	probs := liveAgainst(t, func(string) []rosbridgetest.TypeDef {
		return []rosbridgetest.TypeDef{{Type: "nav2_msgs/NavigateToPose_Goal", FieldNames: []string{"pose", "behavior_tree"}, FieldTypes: []string{"geometry_msgs/PoseStamped"}}}
	})
	if len(probs) != 1 || probs[0].Path != "rosbridge.tools.go.action.goal" ||
		!strings.Contains(probs[0].Message, "nav2_msgs/NavigateToPose_Goal") || !strings.Contains(probs[0].Message, "2 fieldnames and 1 fieldtypes") {
		t.Fatalf("problems: %+v", probs)
	}
}

// TestLiveManyTypedefs: a large answer is read, and still checked.
func TestLiveManyTypedefs(t *testing.T) {
	if probs := liveAgainst(t, manyTypedefs(2000)); len(probs) != 0 {
		t.Fatalf("problems: %+v", probs)
	}
}

// wideTypedefs is a goal whose message type has n fields besides the
// ones the goal builds.
func wideTypedefs(n int) func(string) []rosbridgetest.TypeDef {
	defs := manyTypedefs(0)("")
	goal := &defs[0]
	for i := range n {
		goal.FieldNames = append(goal.FieldNames, fmt.Sprintf("f%d", i))
		goal.FieldTypes = append(goal.FieldTypes, "double")
		goal.FieldArrayLen = append(goal.FieldArrayLen, -1)
	}
	return func(string) []rosbridgetest.TypeDef { return defs }
}

// BenchmarkLiveTypedefs is the live check of one goal against a rosapi
// that answers with 20,000 typedefs, or with one typedef of 20,000 fields.
func BenchmarkLiveTypedefs(b *testing.B) {
	for _, bc := range []struct {
		name string
		defs func(string) []rosbridgetest.TypeDef
	}{{"typedefs=20000", manyTypedefs(20000)}, {"fields=20000", wideTypedefs(20000)}} {
		b.Run(bc.name, func(b *testing.B) {
			srv, err := rosbridgetest.Start(b.Context(), "127.0.0.1:0", rosbridgetest.Options{Typedefs: bc.defs})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = srv.Close() })
			b.ReportAllocs()
			for b.Loop() {
				if probs := liveCheckAt(b, srv.URL()); len(probs) != 0 {
					b.Fatalf("problems: %+v", probs)
				}
			}
		})
	}
}
