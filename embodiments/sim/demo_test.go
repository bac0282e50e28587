package sim_test

import (
	"math"
	"strings"
	"testing"
)

func num(t *testing.T, m map[string]any, keys ...string) float64 {
	t.Helper()
	var v any = m
	for _, k := range keys {
		mm, isMap := v.(map[string]any)
		if !isMap {
			t.Fatalf("%v: %q is not inside an object", keys, k)
		}
		v = mm[k]
	}
	f, isNum := v.(float64)
	if !isNum {
		t.Fatalf("%v: %v is not a number", keys, v)
	}
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.005 }

// TestDemoEpisode walks the household demo step by step: the grasp from the
// table's standoff pose is out of reach, the table is 0.6 m ahead (so the
// harness's clearance hook clamps a 1.0 m move to 0.5 m), after which the
// grasp, the drawer and the place all succeed.
func TestDemoEpisode(t *testing.T) {
	c := simClient(t, "", 7)
	nav := mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	if x, y, th := num(t, nav, "pose", "x"), num(t, nav, "pose", "y"), num(t, nav, "pose", "theta_deg"); !near(x, 10.05) || !near(y, 2.5) || !near(th, 0) {
		t.Fatalf("navigate_to table ended at (%v, %v, %v), want the west standoff (10.05, 2.5, 0)", x, y, th)
	}
	if d := num(t, nav, "distance_to_target_m"); !near(d, 0.85) {
		t.Fatalf("distance from the table's standoff pose to its edge = %v, want 0.85 (0.6 gap + 0.25 radius)", d)
	}
	reason := mustFail(t, c, "pick_up", map[string]any{"object_name": "mug"})
	if want := "too far from the target to grasp (1.10 m, reach 0.80 m); move closer"; reason != want {
		t.Fatalf("pick_up from the standoff: reason %q, want %q", reason, want)
	}
	cl := mustSucceed(t, c, "get_clearance", nil)
	front := num(t, cl, "front")
	if !near(front, 0.6) {
		t.Fatalf("front clearance at the table = %v, want 0.6", front)
	}
	// The clearance hook clamps the requested 1.0 m to front - safety margin.
	mv := mustSucceed(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": front - 0.1})
	if !near(num(t, mv, "moved_m"), 0.5) {
		t.Fatalf("moved %v, want 0.5", mv["moved_m"])
	}
	if got := mustSucceed(t, c, "pick_up", map[string]any{"object_name": "mug"}); got["held"] != "mug" {
		t.Fatalf("pick_up: held = %v", got["held"])
	}
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	mustSucceed(t, c, "open_drawer", map[string]any{"name": "top_drawer"})
	placed := mustSucceed(t, c, "place", map[string]any{"object_name": "mug", "target": "top_drawer", "relation": "in"})
	run, _ := placed["run_id"].(string)
	if !strings.HasPrefix(run, "run-") {
		t.Fatalf("place: run_id %v", placed["run_id"])
	}
	obs := mustSucceed(t, c, "observe", map[string]any{"run_id": run})
	if obs["run_id"] != run || obs["held"] != "" { // sent empty: the gripper holds nothing
		t.Fatalf("observe after place: run_id %v held %v", obs["run_id"], obs["held"])
	}
	found := false
	for _, d := range obs["detections"].([]any) {
		d := d.(map[string]any)
		found = found || (d["name"] == "mug" && d["relation"] == "in" && d["target"] == "top_drawer")
	}
	if !found {
		t.Fatalf("observe after place: mug not detected in top_drawer: %v", obs["detections"])
	}
	mustSucceed(t, c, "close_drawer", map[string]any{"name": "top_drawer"})
	obs = mustSucceed(t, c, "observe", nil)
	if st := obs["state"].(map[string]any)["drawers"].(map[string]any)["top_drawer"]; st != "closed" {
		t.Fatalf("top_drawer state %v after close", st)
	}
}
