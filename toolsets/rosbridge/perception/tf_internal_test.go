package perception

import (
	"math"
	"strings"
	"testing"
	"time"
)

// yaw is a rotation about z by deg degrees.
func yaw(deg float64) Quat {
	h := deg * math.Pi / 360
	return Quat{Z: math.Sin(h), W: math.Cos(h)}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func wantPose(t *testing.T, what string, tr Transform, x, y, z, rollDeg, pitchDeg, yawDeg float64) {
	t.Helper()
	r, p, yw := tr.R.RPYDeg()
	if !near(tr.T.X, x) || !near(tr.T.Y, y) || !near(tr.T.Z, z) || !near(r, rollDeg) || !near(p, pitchDeg) || !near(math.Remainder(yw-yawDeg, 360), 0) {
		t.Fatalf("%s: got (%.6f, %.6f, %.6f) rpy (%.3f, %.3f, %.3f), want (%g, %g, %g) rpy (%g, %g, %g)",
			what, tr.T.X, tr.T.Y, tr.T.Z, r, p, yw, x, y, z, rollDeg, pitchDeg, yawDeg)
	}
}

// The arm's tree, by hand: map → odom (1 m along x, turned 90°), odom →
// base_link (2 m along odom's x), base_link → tool0 (0.5 m up, turned
// 90°), base_link → camera (static: 0.1 m ahead, 0.3 m up).
func armTree(t0 time.Time) Tree {
	return Tree{
		"odom":      {Parent: "map", Transform: Transform{T: Vec3{1, 0, 0}, R: yaw(90)}, At: t0.Add(3 * time.Second)},
		"base_link": {Parent: "odom", Transform: Transform{T: Vec3{2, 0, 0}, R: Quat{W: 1}}, At: t0.Add(time.Second)},
		"tool0":     {Parent: "base_link", Transform: Transform{T: Vec3{0, 0, 0.5}, R: yaw(90)}, At: t0.Add(2 * time.Second)},
		"camera":    {Parent: "base_link", Transform: Transform{T: Vec3{0.1, 0, 0.3}, R: Quat{W: 1}}, Static: true},
	}
}

func TestTFLookupComposesAChainOfThree(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tree := armTree(t0)
	// map ← tool0 = (1,0,0)+Rz90·(2,0,0) = (1,2,0), then +Rz90·(0,0,0.5):
	// (1, 2, 0.5), turned 90°+90° = 180°.
	tr, at, static, err := tree.Lookup("map", "tool0")
	if err != nil {
		t.Fatal(err)
	}
	wantPose(t, "map ← tool0", tr, 1, 2, 0.5, 0, 0, 180)
	if static || !at.Equal(t0.Add(time.Second)) {
		t.Fatalf("the lookup's time is its oldest dynamic link's (base_link, t0+1s): got %v static %v", at.Sub(t0), static)
	}
	// A leading slash names the same frame (tf2 drops it).
	if tr2, _, _, err := tree.Lookup("/map", "/tool0"); err != nil || tr2 != tr {
		t.Fatalf("/map ← /tool0: %v %v", tr2, err)
	}
}

func TestTFLookupInverse(t *testing.T) {
	tree := armTree(time.Unix(1000, 0))
	// tool0 ← map: R = Rz(-180), T = -R·(1, 2, 0.5) = (1, 2, -0.5): the map
	// origin seen from the tool.
	tr, _, _, err := tree.Lookup("tool0", "map")
	if err != nil {
		t.Fatal(err)
	}
	wantPose(t, "tool0 ← map", tr, 1, 2, -0.5, 0, 0, 180)
	// Composing a lookup with its inverse is the identity.
	fwd, _, _, _ := tree.Lookup("map", "tool0")
	wantPose(t, "(map ← tool0)·(tool0 ← map)", fwd.Then(tr), 0, 0, 0, 0, 0, 0)
}

func TestTFLookupAcrossACommonAncestor(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tree := armTree(t0)
	// tool0 ← camera = inv(base ← tool0)·(base ← camera): R = Rz(-90),
	// T = (0,0,-0.5) + Rz(-90)·(0.1,0,0.3) = (0, -0.1, -0.2).
	tr, at, static, err := tree.Lookup("tool0", "camera")
	if err != nil {
		t.Fatal(err)
	}
	wantPose(t, "tool0 ← camera", tr, 0, -0.1, -0.2, 0, 0, -90)
	// Only tool0's link is dynamic on this path (map and odom are not on it).
	if static || !at.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("time %v static %v, want tool0's link (t0+2s)", at.Sub(t0), static)
	}
	// base_link ← camera is static only: never stale.
	if _, at, static, err := tree.Lookup("base_link", "camera"); err != nil || !static || !at.IsZero() {
		t.Fatalf("base_link ← camera: static %v at %v err %v", static, at, err)
	}
	// A frame in itself is the identity.
	if tr, _, static, err := tree.Lookup("camera", "camera"); err != nil || tr != Identity || !static {
		t.Fatalf("camera ← camera: %v %v %v", tr, static, err)
	}
}

func TestTFRotationsBeyondYaw(t *testing.T) {
	s := math.Sqrt(0.5)
	// roll 90° then a point (0, 1, 0) goes to (0, 0, 1).
	roll := Transform{R: Quat{X: s, W: s}}
	if p := roll.Apply(Vec3{0, 1, 0}); !near(p.X, 0) || !near(p.Y, 0) || !near(p.Z, 1) {
		t.Fatalf("roll 90° of (0,1,0) = %v, want (0,0,1)", p)
	}
	wantPose(t, "roll 90°", roll, 0, 0, 0, 90, 0, 0)
	// pitch 90° takes x to −z.
	pitch := Transform{R: Quat{Y: s, W: s}}
	if p := pitch.Apply(Vec3{1, 0, 0}); !near(p.X, 0) || !near(p.Z, -1) {
		t.Fatalf("pitch 90° of (1,0,0) = %v, want (0,0,-1)", p)
	}
	// A translation in a pitched parent: (parent ← a: pitch 90°) then
	// (a ← b: 1 m along a's x) puts b 1 m down in parent.
	b := pitch.Then(Transform{T: Vec3{1, 0, 0}, R: Quat{W: 1}})
	if !near(b.T.X, 0) || !near(b.T.Y, 0) || !near(b.T.Z, -1) || b.R != pitch.R {
		t.Fatalf("pitch then translate: %+v, want (0, 0, -1) pitched 90°", b)
	}
	// Pitch 45° reads back as 45° (90° is gimbal lock: roll and yaw mix).
	h := math.Pi / 8
	wantPose(t, "pitch 45°", Transform{R: Quat{Y: math.Sin(h), W: math.Cos(h)}}, 0, 0, 0, 0, 45, 0)
}

func TestTFLookupErrors(t *testing.T) {
	tree := armTree(time.Unix(1000, 0))
	tree["gripper"] = Link{Parent: "nowhere", Transform: Identity}
	_, _, _, err := tree.Lookup("map", "gripper")
	if err == nil || !strings.Contains(err.Error(), "no transform from map to gripper") {
		t.Fatalf("a frame off the tree: %v", err)
	}
	// A cycle in untrusted data ends with an error, not a loop.
	loop := Tree{"a": {Parent: "b", Transform: Identity}, "b": {Parent: "a", Transform: Identity}}
	if _, _, _, err := loop.Lookup("x", "a"); err == nil {
		t.Fatal("a cycle gave a transform")
	}
	if _, _, _, err := (Tree{}).Lookup("map", "base_link"); err == nil || !strings.Contains(err.Error(), "no transform received yet") {
		t.Fatalf("an empty tree: %v", err)
	}
}

func TestDecodeTF(t *testing.T) {
	raw := `{"transforms": [
	  {"header": {"frame_id": "/map"}, "child_frame_id": "odom", "transform": {"translation": {"x": 1, "y": 2, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 2}}},
	  {"header": {"frame_id": "odom"}, "child_frame_id": "base_link", "transform": {"translation": {"x": null, "y": 0, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 1}}},
	  {"header": {"frame_id": "odom"}, "child_frame_id": "laser", "transform": {"translation": {"x": 0, "y": 0, "z": 0}, "rotation": {"x": 0, "y": 0, "z": 0, "w": 0}}},
	  {"header": {"frame_id": "odom"}, "child_frame_id": "odom", "transform": {"rotation": {"w": 1}}}
	]}`
	links, bad := DecodeTF([]byte(raw))
	if len(links) != 1 || bad == "" {
		t.Fatalf("want odom only, and a refusal: %v %q", links, bad)
	}
	l := links["odom"]
	if l.Parent != "map" || l.Transform.R != (Quat{W: 1}) || l.Transform.T != (Vec3{1, 2, 0}) {
		t.Fatalf("odom: %+v (a leading slash dropped, the rotation normalized)", l)
	}
	if _, bad := DecodeTF([]byte(`[1]`)); !strings.Contains(bad, "not a TFMessage") {
		t.Fatalf("a list: %q", bad)
	}
}
