package rosbridge_test

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// trajectoryArgs is a FollowJointTrajectory tool's arguments: points, each
// six joint positions and a time.
const trajectoryArgs = `{"points": {"type": "array", "min_items": 1, "max_items": 20, "description": "the waypoints, in order",
  "items": {"type": "object", "properties": {
    "positions": {"type": "array", "min_items": 6, "max_items": 6, "items": {"type": "number", "minimum": -6.3, "maximum": 6.3}},
    "time_s": {"type": "number", "minimum": 0, "maximum": 60, "description": "seconds from the start"}}}}}`

// trajectoryGoal builds trajectory.points[] from args.points.
const trajectoryGoal = `{trajectory: {joint_names: ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'], points: map(args.points, ({positions: #.positions, time_from_start: {sec: int(#.time_s), nanosec: int((#.time_s - int(#.time_s)) * 1e9)}}))}}`

// trajectorySection is a rosbridge block with one trajectory tool; args
// and goal are its arguments (JSON) and goal expr.
func trajectorySection(t testing.TB, args, goal string) map[string]any {
	t.Helper()
	g, err := json.Marshal(goal)
	if err != nil {
		t.Fatal(err)
	}
	return intSection(t, `{"tools": {"move_arm": {"description": "Follow a joint trajectory.", "args": `+args+`,
  "action": {"name": "`+rosbridgetest.ActionTrajectoryEcho+`", "type": "`+rosbridgetest.TypeFollowJointTraj+`", "goal": `+string(g)+`,
    "success": "result.error_code == 0", "reason": "result.error_string"}}}}`)
}

// A trajectory tool takes several points: the model is offered their
// schema, the guard refuses a call outside it before anything is sent, and
// the goal built from them reaches the action server whole.
func TestStructuredArguments(t *testing.T) {
	f := fake(t)
	r := startSection(t, f.URL, trajectorySection(t, trajectoryArgs, trajectoryGoal))

	tools, err := r.g.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var sch struct {
		Properties map[string]struct {
			Type     string
			MaxItems int
			Items    struct {
				Properties map[string]struct {
					Type     string
					MinItems int
					MaxItems int
					Items    struct{ Maximum float64 }
				}
				Required []string
			}
		}
	}
	if err := json.Unmarshal(tools[0].Def().InputSchema, &sch); err != nil {
		t.Fatal(err)
	}
	pts := sch.Properties["points"]
	pos := pts.Items.Properties["positions"]
	if pts.Type != "array" || pts.MaxItems != 20 || pos.MinItems != 6 || pos.MaxItems != 6 || pos.Items.Maximum != 6.3 || len(pts.Items.Required) != 2 {
		t.Errorf("the input schema does not say the points: %s", tools[0].Def().InputSchema)
	}

	env := r.call(t, "move_arm", `{"points": [{"positions": [0, 0, 0, 0, 0, 0], "time_s": 0.5}, {"positions": [0.1, -1.2, 1.5, 0, 1.57, 0], "time_s": 2.25}]}`)
	wantSuccess(t, env)
	res, _ := env.Value["result"].(map[string]any)
	if got, want := res["error_string"], "2 points: [0 0 0 0 0 0] at 0 s 5e+08 ns; [0.1 -1.2 1.5 0 1.57 0] at 2 s 2.5e+08 ns"; got != want {
		t.Errorf("the server received %q, want %q", got, want)
	}

	for args, want := range map[string]string{
		`{"points": [{"positions": [0, 0, 0, 0, 0], "time_s": 1}]}`:            "minItems",
		`{"points": [{"positions": [0, 0, 0, 0, 0, 9], "time_s": 1}]}`:         "maximum",
		`{"points": [{"positions": [0, 0, 0, 0, 0, 0]}]}`:                      "time_s",
		`{"points": [{"positions": [0, 0, 0, 0, 0, 0], "time_s": 1, "v": 1}]}`: "v",
		`{"points": []}`: "minItems",
		`{"points": [` + strings.Repeat(`{"positions": [0, 0, 0, 0, 0, 0], "time_s": 1}, `, 20) + `{"positions": [0, 0, 0, 0, 0, 0], "time_s": 1}]}`: "maxItems",
	} {
		env := r.call(t, "move_arm", args)
		if env.Success || !strings.Contains(env.Reason, "invalid arguments for move_arm") || !strings.Contains(env.Reason, want) {
			t.Errorf("%s: got %v %q, want the guard's refusal naming %q", args, env.Success, env.Reason, want)
		}
	}
	if st := state(t, f.URL); st.GoalsReceived != 1 {
		t.Errorf("%d goals reached the server; only the valid call's should", st.GoalsReceived)
	}
}

// Structured arguments are checked at load: what an expr reads of them,
// the types it uses them as, and their own declaration (bounded arrays,
// bounded nesting).
func TestStructuredArgumentsChecked(t *testing.T) {
	deep := `{"a": {"type": "array", "max_items": 2, "items": {"type": "array", "max_items": 2, "items": {"type": "array", "max_items": 2, "items": {"type": "array", "max_items": 2, "items": {"type": "array", "max_items": 2, "items": {"type": "number"}}}}}}}`
	for name, c := range map[string]struct{ args, goal, want string }{
		"typo in a closure": {trajectoryArgs, strings.Replace(trajectoryGoal, "#.positions", "#.positons", 1), "tools.move_arm.action.goal: expr"},
		"unindexed array":   {trajectoryArgs, `{trajectory: {points: [{positions: args.points.positions}]}}`, "args.points.positions: args.points is an array; index it first"},
		"undeclared field":  {trajectoryArgs, `{trajectory: {points: [{positions: args.points[0].positions, time_from_start: {sec: args.points[0].tme_s}}]}}`, "args.points[].tme_s is not declared (declared here: positions, time_s)"},
		"wrong type":        {trajectoryArgs, `{trajectory: {joint_names: args.points[0].time_s + 'x'}}`, "does not fit the declared arguments"},
		"unbounded array":   {`{"p": {"type": "array", "items": {"type": "number"}}}`, `{trajectory: {}}`, "tools.move_arm.args.p.max_items: an array argument declares max_items"},
		"too deep":          {deep, `{trajectory: {}}`, "tools.move_arm.args.a.items.items.items.items.type: arguments nest at most 4"},
		"items of a number": {`{"p": {"type": "number", "items": {"type": "number"}}}`, `{trajectory: {}}`, "tools.move_arm.args.p.items: items types an array's elements"},
	} {
		err := loadErr(t, trajectorySection(t, c.args, c.goal))
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", name, err, c.want)
		}
	}
}

// intSection is section with whole numbers as ints, as a spec's CUE gives
// them (JSON would give float64, which CUE's int refuses).
func intSection(t testing.TB, js string) map[string]any {
	t.Helper()
	var ints func(v any) any
	ints = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = ints(e)
			}
		case []any:
			for i, e := range x {
				x[i] = ints(e)
			}
		case float64:
			if x == math.Trunc(x) {
				return int(x)
			}
		}
		return v
	}
	return ints(section(t, js)).(map[string]any)
}

// Through the spec file: a structured argument in CUE loads, and a problem
// in it is at its line.
func TestStructuredArgumentsAtSpecPositions(t *testing.T) {
	src, err := os.ReadFile("../../examples/turtlebot/spec.cue")
	if err != nil {
		t.Fatal(err)
	}
	checkDiagnostics(t, string(src), []edit{
		{`y: {type: "number", description: "map y, metres"}`, `y: {type: "number"}, via: {type: "array", items: {type: "object", properties: {x: {type: "number"}}}}`, "an array argument declares max_items"},
		{`message:  "{linear: {x: args.speed_mps,`, `message:  "{linear: {x: args.speed_mps.x,`, "does not fit the declared arguments"},
	})
	ok := strings.Replace(string(src), `y: {type: "number", description: "map y, metres"}`, `y: {type: "number"}, via: {type: "array", max_items: 5, items: {type: "object", properties: {x: {type: "number"}}}}`, 1)
	ok = strings.Replace(ok, `position: {x: args.x, y: args.y`, `position: {x: args.x + args.via[0].x, y: args.y`, 1)
	if ok == string(src) {
		t.Fatal("the example spec changed")
	}
	checkDiagnostics(t, ok, nil)
}
