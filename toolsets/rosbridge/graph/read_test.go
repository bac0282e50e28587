package graph_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

func readGraph(t *testing.T, o rosbridgetest.Options) *graph.Graph {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	g, err := graph.ReadGraph(ctx, srv.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The fake TurtleBot's graph: its topics with their types, its action and
// its service typed and described; rosapi's own services are not endpoints.
func TestReadGraph(t *testing.T) {
	g := readGraph(t, rosbridgetest.Options{})
	if g.Topics["/scan"] != "sensor_msgs/msg/LaserScan" || g.Topics["/light_curtain"] != "std_msgs/msg/Bool" {
		t.Errorf("topics %v", g.Topics)
	}
	// Nav2's action, beside the fake's instant test actions (/skill, the
	// trajectory echo).
	nav := slices.IndexFunc(g.Actions, func(a graph.Endpoint) bool { return a.Name == "/navigate_to_pose" })
	if nav < 0 || len(g.Actions) != 3 || g.Actions[nav].Type != "nav2_msgs/action/NavigateToPose" || g.Actions[nav].Goal == nil {
		t.Fatalf("actions %+v", g.Actions)
	}
	var goal []string
	for _, f := range g.Actions[nav].Goal.Fields {
		goal = append(goal, f.Name)
	}
	if !slices.Equal(goal, []string{"pose", "behavior_tree"}) || g.Actions[nav].Goal.Fields[0].Message == nil {
		t.Errorf("goal fields %v", goal)
	}
	// The TurtleBot's services: /dock, and /reset_world (a live robot's
	// reset step), in name order.
	if len(g.Services) != 2 || g.Services[0].Name != "/dock" || g.Services[0].Response == nil || g.Services[1].Name != "/reset_world" || len(g.Notes) != 0 {
		t.Errorf("services %+v, notes %v", g.Services, g.Notes)
	}
}

// A definition shared many times over (each of 20 fields a message of 20
// fields, five deep: 3.2 million fields spelled out) is read to MaxFields
// fields in all.
func TestReadGraphSharedDefinitionsBounded(t *testing.T) {
	var defs []rosbridgetest.TypeDef
	for level := range 6 {
		d := rosbridgetest.TypeDef{Type: fmt.Sprintf("wide_msgs/L%d", level)}
		for i := range 20 {
			typ := "double"
			if level < 5 {
				typ = fmt.Sprintf("wide_msgs/L%d", level+1)
			}
			d.FieldNames = append(d.FieldNames, fmt.Sprintf("f%d", i))
			d.FieldTypes = append(d.FieldTypes, typ)
			d.FieldArrayLen = append(d.FieldArrayLen, -1)
		}
		defs = append(defs, d)
	}
	g := readGraph(t, rosbridgetest.Options{Typedefs: func(string) []rosbridgetest.TypeDef { return defs }})
	var count func(m *graph.Message) int
	count = func(m *graph.Message) int {
		n := 0
		for _, f := range m.Fields {
			n++
			if f.Message != nil {
				n += count(f.Message)
			}
		}
		return n
	}
	if n := count(g.Actions[0].Goal); n == 0 || n > graph.MaxFields {
		t.Fatalf("the goal was read to %d fields, want 1 to %d", n, graph.MaxFields)
	}
}
