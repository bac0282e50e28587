package sim_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestToolList checks that any MCP client sees the nine tools as plain tools
// with object schemas, required arguments and honest descriptions.
func TestToolList(t *testing.T) {
	c := simClient(t, "", 1)
	res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{
		"navigate_to": {"target"}, "move_base": {"direction", "distance_m"}, "rotate": {"degrees"},
		"pick_up": {"object_name"}, "place": {"object_name", "relation", "target"},
		"open_drawer": {"name"}, "close_drawer": {"name"}, "observe": nil, "get_clearance": nil, "stop": nil,
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		want, known := required[tool.Name]
		if !known {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		var schema struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		raw, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		var def struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(def.InputSchema, &schema); err != nil {
			t.Fatalf("%s: input schema: %v", tool.Name, err)
		}
		slices.Sort(schema.Required)
		if schema.Type != "object" || !slices.Equal(schema.Required, want) {
			t.Errorf("%s: schema type %q required %v, want object %v", tool.Name, schema.Type, schema.Required, want)
		}
		for _, r := range want {
			if _, has := schema.Properties[r]; !has {
				t.Errorf("%s: property %s missing", tool.Name, r)
			}
		}
		if len(tool.Description) < 60 {
			t.Errorf("%s: description too thin to be a contract: %q", tool.Name, tool.Description)
		}
	}
	if len(names) != len(required) {
		t.Fatalf("tools %v, want %d tools", names, len(required))
	}
}

func wantReason(t *testing.T, reason, substr string) {
	t.Helper()
	if !strings.Contains(reason, substr) {
		t.Fatalf("reason %q does not say %q", reason, substr)
	}
}

func TestNavigateTo(t *testing.T) {
	c := simClient(t, "", 1)
	// The list of known targets has every kind the message names, drawers too.
	wantReason(t, mustFail(t, c, "navigate_to", map[string]any{"target": "garage"}), `unknown target "garage"`)
	wantReason(t, mustFail(t, c, "navigate_to", map[string]any{"target": "garage"}), "bottom_drawer")
	// An object target ends at its furniture's front, facing it.
	nav := mustSucceed(t, c, "navigate_to", map[string]any{"target": "remote"})
	if x, y, th := num(t, nav, "pose", "x"), num(t, nav, "pose", "y"), num(t, nav, "pose", "theta_deg"); !near(x, 6.5) || !near(y, 3.4) || !near(th, 90) {
		t.Fatalf("navigate_to remote ended at (%v, %v, %v), want (6.5, 3.4, 90) in front of the sofa", x, y, th)
	}
	if d := num(t, nav, "distance_to_target_m"); !near(d, 0.75) {
		t.Fatalf("remote %v m away after navigate_to, want 0.75 (within reach)", d)
	}
	nav = mustSucceed(t, c, "navigate_to", map[string]any{"target": "bedroom"})
	if nav["pose"].(map[string]any)["room"] != "bedroom" || num(t, nav, "path_length_m") < 2 {
		t.Fatalf("navigate_to bedroom: %v", nav)
	}
	// Keys are in a drawer: navigating to them goes to the cabinet's front.
	nav = mustSucceed(t, c, "navigate_to", map[string]any{"target": "keys"})
	if !near(num(t, nav, "pose", "y"), 3.7) || !near(num(t, nav, "pose", "theta_deg"), 90) {
		t.Fatalf("navigate_to keys: %v", nav["pose"])
	}
}

func TestNavigateNoPath(t *testing.T) {
	c := simClient(t, "testdata/flaky.yaml", 1)
	wantReason(t, mustFail(t, c, "navigate_to", map[string]any{"target": "safe"}), "no path to safe")
	wantReason(t, mustFail(t, c, "navigate_to", map[string]any{"target": "closet"}), "no path to closet")
	obs := mustSucceed(t, c, "observe", nil)
	if !near(num(t, obs, "pose", "x"), 1) {
		t.Fatalf("a failed navigation moved the robot: %v", obs["pose"])
	}
}

// TestMoveBaseCollision turns toward the sofa and drives into it: the base
// stops at contact, says how far it got, and the clearance that way reads
// zero.
func TestMoveBaseCollision(t *testing.T) {
	c := simClient(t, "", 1)
	left := num(t, mustSucceed(t, c, "get_clearance", nil), "left")
	if !near(left, 1.25) {
		t.Fatalf("left clearance at start = %v, want 1.25 (sofa edge 1.5 m away, radius 0.25 m)", left)
	}
	mustSucceed(t, c, "rotate", map[string]any{"degrees": 90})
	out, _ := call(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": 2.0})
	if out["success"] != false || !near(num(t, out, "moved_m"), 1.25) {
		t.Fatalf("move into the sofa: %v", out)
	}
	wantReason(t, out["reason"].(string), "stopped at contact with the sofa after 1.25 m of the 2.00 m requested")
	if cl := mustSucceed(t, c, "get_clearance", nil); num(t, cl, "front") != 0 || !near(num(t, cl, "back"), 3.45) {
		t.Fatalf("clearance at contact: %v", cl)
	}
	wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": 0.1}), "after 0.00 m")
	// Planning still works from a pose touching an obstacle.
	if nav := mustSucceed(t, c, "navigate_to", map[string]any{"target": "sofa"}); !near(num(t, nav, "pose", "y"), 3.4) {
		t.Fatalf("navigate_to sofa from contact: %v", nav["pose"])
	}
	mustSucceed(t, c, "rotate", map[string]any{"degrees": -180})
	mustSucceed(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": 0.3})
	mustSucceed(t, c, "rotate", map[string]any{"degrees": 90})
	mv := mustSucceed(t, c, "move_base", map[string]any{"direction": "backward", "distance_m": 0.3})
	if !near(num(t, mv, "pose", "x"), 5.7) || !near(num(t, mv, "pose", "y"), 3.1) {
		t.Fatalf("backward from heading east: %v", mv["pose"])
	}
	wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": "up", "distance_m": 0.1}), "must be forward or backward")
	wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": 0}), "must be greater than 0")
}

// TestMoveBaseDoesNotStrafe pins the differential drive: left and right are
// refused with the way to get there, and the robot does not move.
func TestMoveBaseDoesNotStrafe(t *testing.T) {
	c := simClient(t, "", 1)
	before := mustSucceed(t, c, "observe", nil)
	for _, dir := range []string{"left", "right"} {
		wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": dir, "distance_m": 0.2}), "cannot move sideways; rotate first")
	}
	after := mustSucceed(t, c, "observe", nil)
	if num(t, after, "pose", "x") != num(t, before, "pose", "x") || num(t, after, "pose", "y") != num(t, before, "pose", "y") {
		t.Fatalf("a refused sideways move moved the robot: %v -> %v", before["pose"], after["pose"])
	}
}

func TestRotate(t *testing.T) {
	c := simClient(t, "", 1)
	r := mustSucceed(t, c, "rotate", map[string]any{"degrees": 270})
	if !near(num(t, r, "pose", "theta_deg"), -90) {
		t.Fatalf("rotate 270 from 0: %v", r["pose"])
	}
	wantReason(t, mustFail(t, c, "rotate", map[string]any{"degrees": 400}), "within -360..360")
	// Facing south now, forward clearance is the distance to the south wall.
	if f := num(t, mustSucceed(t, c, "get_clearance", nil), "front"); !near(f, 2.2) {
		t.Fatalf("front clearance facing south = %v, want 2.2", f)
	}
}

func TestPickUpFailures(t *testing.T) {
	c := simClient(t, "", 1)
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{"object_name": "spoon"}), "object not visible")
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{"object_name": "remote"}), "object not visible: remote is not in view")
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "remote"})
	mustSucceed(t, c, "pick_up", map[string]any{"object_name": "remote"})
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{"object_name": "remote"}), "already holding remote")
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{"object_name": "keys"}), "gripper not empty: holding remote")
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "remote", "target": "bottom_drawer", "relation": "in"}), "the drawer is closed")
	mustSucceed(t, c, "place", map[string]any{"object_name": "remote", "target": "cabinet", "relation": "on"})
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{"object_name": "keys"}), "the drawer is closed: keys is in bottom_drawer")
	mustSucceed(t, c, "open_drawer", map[string]any{"name": "bottom_drawer"})
	if got := mustSucceed(t, c, "pick_up", map[string]any{"object_name": "keys"}); got["held"] != "keys" {
		t.Fatalf("pick keys: %v", got)
	}
}

func TestPlaceFailures(t *testing.T) {
	c := simClient(t, "", 1)
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "table", "relation": "on"}), "not holding mug: the gripper is empty")
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	mustSucceed(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": 0.5})
	mustSucceed(t, c, "pick_up", map[string]any{"object_name": "mug"})
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "book", "target": "table", "relation": "on"}), "not holding book: the gripper holds mug")
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "table", "relation": "under"}), `relation "under"`)
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "table", "relation": "in"}), `"table" is not a container`)
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "moon", "relation": "on"}), `unknown target "moon"`)
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "cabinet", "relation": "on"}), "target not visible: cabinet")
	mustSucceed(t, c, "rotate", map[string]any{"degrees": 45})
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "cabinet", "relation": "on"}), "too far from the target to place")
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "sofa", "relation": "on"}), "target not visible: sofa")
	mustSucceed(t, c, "rotate", map[string]any{"degrees": -45})
	mustSucceed(t, c, "place", map[string]any{"object_name": "mug", "target": "table", "relation": "on"})
	obs := mustSucceed(t, c, "observe", nil)
	if obs["held"] != "" || !detected(obs, "mug", "on", "table") {
		t.Fatalf("after placing on the table: held %v detections %v", obs["held"], obs["detections"])
	}
}

func detected(obs map[string]any, name, relation, target string) bool {
	ds, _ := obs["detections"].([]any)
	for _, d := range ds {
		d := d.(map[string]any)
		if d["name"] == name && d["relation"] == relation && d["target"] == target && d["visible"] == true {
			return true
		}
	}
	return false
}

// TestDrawerState opens and closes both drawers: states are reported, double
// operations fail, an object in a closed drawer is hidden and reappears when
// the drawer opens.
func TestDrawerState(t *testing.T) {
	c := simClient(t, "", 1)
	wantReason(t, mustFail(t, c, "open_drawer", map[string]any{"name": "top_drawer"}), "drawer not visible")
	wantReason(t, mustFail(t, c, "open_drawer", map[string]any{"name": "sock_drawer"}), `unknown drawer "sock_drawer"; drawers: top_drawer, bottom_drawer`)
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	wantReason(t, mustFail(t, c, "open_drawer", map[string]any{"name": "top_drawer"}), "too far from the target to reach the handle (2.65 m, reach 0.80 m)")
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	wantReason(t, mustFail(t, c, "close_drawer", map[string]any{"name": "top_drawer"}), "the drawer is already closed")
	if detected(mustSucceed(t, c, "observe", nil), "keys", "in", "bottom_drawer") {
		t.Fatal("keys seen inside a closed drawer")
	}
	got := mustSucceed(t, c, "open_drawer", map[string]any{"name": "bottom_drawer"})
	if got["state"] != "open" {
		t.Fatalf("open_drawer: %v", got)
	}
	wantReason(t, mustFail(t, c, "open_drawer", map[string]any{"name": "bottom_drawer"}), "the drawer is already open")
	obs := mustSucceed(t, c, "observe", nil)
	drawers := obs["state"].(map[string]any)["drawers"].(map[string]any)
	if drawers["bottom_drawer"] != "open" || drawers["top_drawer"] != "closed" || !detected(obs, "keys", "in", "bottom_drawer") {
		t.Fatalf("after opening bottom_drawer: drawers %v detections %v", drawers, obs["detections"])
	}
	mustSucceed(t, c, "close_drawer", map[string]any{"name": "bottom_drawer"})
	if detected(mustSucceed(t, c, "observe", nil), "keys", "in", "bottom_drawer") {
		t.Fatal("keys still seen after closing the drawer")
	}
}

// observeImages calls observe and returns the decoded text and the PNG bytes.
func observeImages(t *testing.T, c *client.Client, args map[string]any) (map[string]any, [][]byte) {
	t.Helper()
	out, res := call(t, c, "observe", args)
	var pngs [][]byte
	for _, ct := range res.Content[1:] {
		img, isImg := ct.(mcp.ImageContent)
		if !isImg || img.MIMEType != "image/png" {
			t.Fatalf("observe content %T %v, want image/png", ct, ct)
		}
		b, err := base64.StdEncoding.DecodeString(img.Data)
		if err != nil {
			t.Fatalf("image is not base64: %v", err)
		}
		pngs = append(pngs, b)
	}
	return out, pngs
}

func TestObserveImages(t *testing.T) {
	c := simClient(t, "", 1)
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	obs, pngs := observeImages(t, c, nil)
	want := []struct {
		camera string
		w, h   int
	}{{"head", 320, 240}, {"wrist", 160, 120}}
	if len(pngs) != len(want) {
		t.Fatalf("%d images, want one per camera (%d)", len(pngs), len(want))
	}
	for i, w := range want {
		cfg, err := png.DecodeConfig(bytes.NewReader(pngs[i]))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", w.camera, err)
		}
		if cfg.Width != w.w || cfg.Height != w.h {
			t.Fatalf("%s: %dx%d, want %dx%d", w.camera, cfg.Width, cfg.Height, w.w, w.h)
		}
		meta := obs["images"].([]any)[i].(map[string]any)
		if meta["camera"] != w.camera || num(t, meta, "width") != float64(w.w) {
			t.Fatalf("images[%d] = %v, want camera %s", i, meta, w.camera)
		}
	}
	if !detected(obs, "mug", "on", "table") || !strings.Contains(obs["summary"].(string), "sees mug on table at 1.10 m") {
		t.Fatalf("observe at the table: %v", obs)
	}
	wantReason(t, mustFail(t, c, "observe", map[string]any{"run_id": "run-9"}), `unknown run_id "run-9"`)
	// Only the id a call returned is evidence for it, not a spelling of it.
	for _, id := range []string{"run-01", "run-+1", "run- 1"} {
		wantReason(t, mustFail(t, c, "observe", map[string]any{"run_id": id}), "unknown run_id")
	}
	if got := mustSucceed(t, c, "observe", map[string]any{"run_id": "run-1"}); got["run_id"] != "run-1" {
		t.Fatalf("observe run-1 echoed %v", got["run_id"])
	}
}

// TestBadArguments: malformed or missing arguments come back as readable
// failure envelopes, not protocol errors.
func TestBadArguments(t *testing.T) {
	c := simClient(t, "", 1)
	wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": "forward", "distance_m": "far"}), "invalid arguments")
	wantReason(t, mustFail(t, c, "pick_up", map[string]any{}), "object_name: required")
	wantReason(t, mustFail(t, c, "place", map[string]any{"object_name": "mug", "target": "table"}), "relation: required")
	wantReason(t, mustFail(t, c, "navigate_to", nil), "target: required")
	// A missing number is not a zero: rotate without degrees does not turn
	// "by 0" successfully, and move_base names the missing argument.
	wantReason(t, mustFail(t, c, "rotate", map[string]any{}), "degrees: required")
	wantReason(t, mustFail(t, c, "move_base", map[string]any{"direction": "forward"}), "distance_m: required")
}

// TestNavigateToObjectPrefersNearestSide: from the cabinet, navigate_to the
// table takes the shortest path (its north side), but navigate_to the mug
// (near the table's west edge) ends on the west side, nearest the mug.
func TestNavigateToObjectPrefersNearestSide(t *testing.T) {
	c := simClient(t, "", 1)
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	north := mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	if !near(num(t, north, "pose", "y"), 3.75) || !near(num(t, north, "pose", "theta_deg"), -90) {
		t.Fatalf("navigate_to table from the cabinet: %v, want the north side", north["pose"])
	}
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	nav := mustSucceed(t, c, "navigate_to", map[string]any{"target": "mug"})
	if x, th := num(t, nav, "pose", "x"), num(t, nav, "pose", "theta_deg"); !near(x, 10.05) || !near(th, 0) {
		t.Fatalf("navigate_to mug ended at %v, want the west side facing east", nav["pose"])
	}
	if d := num(t, nav, "distance_to_target_m"); !near(d, 1.1) {
		t.Fatalf("mug %v m away, want 1.10", d)
	}
}
