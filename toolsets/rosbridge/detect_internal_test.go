package rosbridge

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
)

// A Detection3DArray as rosbridge sends it (ROS 2 Humble): a mug seen as a
// cup at 0.3 and a mug at 0.9, its box centred at (0.5, -0.2, 0.1) in the
// camera frame; a detection with no hypothesis; one of another frame.
const mugArray3D = `{"header": {"frame_id": "camera_link", "stamp": {"sec": 1, "nanosec": 0}},
 "detections": [
  {"header": {"frame_id": ""}, "id": "7",
   "results": [{"hypothesis": {"class_id": "cup", "score": 0.3}, "pose": {"pose": {"position": {"x": 9, "y": 9, "z": 9}}}},
               {"hypothesis": {"class_id": "mug", "score": 0.9}, "pose": {"pose": {"position": {"x": 0, "y": 0, "z": 0}}}}],
   "bbox": {"center": {"position": {"x": 0.5, "y": -0.2, "z": 0.1}, "orientation": {"w": 1}}, "size": {"x": 0.08, "y": 0.08, "z": 0.1}}},
  {"header": {"frame_id": "camera_link"}, "id": "", "results": [],
   "bbox": {"center": {"position": {"x": 1, "y": 1, "z": 1}}}},
  {"header": {"frame_id": "/wrist_camera"}, "id": "",
   "results": [{"hypothesis": {"class_id": "bin", "score": 0.5}}],
   "bbox": {"center": {"position": {"x": 0.0, "y": 0.3, "z": null}}}}
 ]}`

func TestDecodeVision3D(t *testing.T) {
	got, err := decodeVision([]byte(mugArray3D), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("want the mug and the bin (no hypothesis: left out), got %+v", got)
	}
	mug, bin := got[0], got[1]
	if mug.det.Name != "mug" || mug.det.Class != "mug" || mug.det.Score != 0.9 || mug.det.ID != "7" || mug.frame != "camera_link" ||
		mug.pos == nil || *mug.pos != (perception.Vec3{X: 0.5, Y: -0.2, Z: 0.1}) {
		t.Fatalf("mug: the best hypothesis, the box centre in the array's frame: %+v %v", mug, mug.pos)
	}
	if bin.frame != "wrist_camera" || bin.pos == nil || *bin.pos != (perception.Vec3{X: 0, Y: 0.3, Z: 0}) {
		t.Fatalf("bin: its own frame (slash dropped), a null z read as 0: %+v %v", bin, bin.pos)
	}
}

func TestDecodeVision2D(t *testing.T) {
	// A 2D box is in pixels: no position unless the hypothesis pose is set.
	raw := `{"header": {"frame_id": "camera"}, "detections": [
	  {"results": [{"hypothesis": {"class_id": "mug", "score": 0.8}, "pose": {"pose": {"position": {"x": 0, "y": 0, "z": 0}}}}],
	   "bbox": {"center": {"position": {"x": 320, "y": 240}, "theta": 0}, "size_x": 40, "size_y": 50}},
	  {"results": [{"hypothesis": {"class_id": "bowl", "score": 0.7}, "pose": {"pose": {"position": {"x": 0.4, "y": 0.1, "z": 0.9}}}}],
	   "bbox": {"center": {"position": {"x": 100, "y": 100}, "theta": 0}, "size_x": 40, "size_y": 50}}]}`
	got, err := decodeVision([]byte(raw), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].pos != nil || got[1].pos == nil || *got[1].pos != (perception.Vec3{X: 0.4, Y: 0.1, Z: 0.9}) {
		t.Fatalf("2D: %+v", got)
	}
}

// withSchemaDefaults gives a config built in Go the schema's defaults for
// the toolset-wide bounds compile requires (decoded from config.cue).
func withSchemaDefaults(t *testing.T, cfg Config) Config {
	t.Helper()
	d, err := DecodeConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.CancelTimeout, cfg.Reconnect = d.CancelTimeout, d.Reconnect
	return cfg
}

// detectPlan is a plan with one Detection3DArray detector on /detections.
func detectPlan(t *testing.T, frame string, minScore float64, value string) (*plan, gathered) {
	t.Helper()
	d := DetectionsDecl{Topic: "/detections", Type: typeDetection3DArray, Camera: "wrist", Frame: frame, MinScore: minScore, Value: value}
	cfg := Config{Observation: &ObservationDecl{Tool: "observe", Perception: Perception{TF: &TFDecl{Topic: "/tf", StaticTopic: "/tf_static"},
		Detections: map[string]DetectionsDecl{"objects": d}}}}
	p, err := compile(withSchemaDefaults(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	// camera_link in map: 1 m along x, 0.5 m up, turned 90°.
	g := gathered{msgs: map[string]wire.Message{"/detections": {Data: json.RawMessage(mugArray3D)}},
		tree: perception.Tree{"camera_link": {Parent: "map", Transform: perception.Transform{T: perception.Vec3{X: 1, Y: 0, Z: 0.5}, R: perception.Quat{Z: math.Sqrt2 / 2, W: math.Sqrt2 / 2}}, At: time.Now()}}}
	return p, g
}

func TestDetectTransformsIntoTheDeclaredFrame(t *testing.T) {
	p, g := detectPlan(t, "map", 0, "")
	g.tree["wrist_camera"] = perception.Link{Parent: "camera_link", Transform: perception.Identity, Static: true}
	got, err := p.detect("objects", g)
	if err != nil {
		t.Fatal(err)
	}
	// Rz90·(0.5, -0.2) = (0.2, 0.5), plus (1, 0): (1.2, 0.5) in map.
	mug := got[0]
	if mug.Name != "mug" || mug.Position == nil || *mug.Position != (world.Point{X: 1.2, Y: 0.5}) || mug.Frame != "" || !mug.Visible || mug.Camera != "wrist" {
		t.Fatalf("mug in map: %+v %v", mug, mug.Position)
	}
	// The bin's wrist_camera is camera_link: Rz90·(0, 0.3) = (-0.3, 0), +1.
	if bin := got[1]; bin.Position == nil || *bin.Position != (world.Point{X: 0.7, Y: 0}) {
		t.Fatalf("bin in map: %+v", bin.Position)
	}
}

func TestDetectKeepsItsFrameWithoutATransform(t *testing.T) {
	p, g := detectPlan(t, "", 0.6, "")
	got, err := p.detect("objects", g)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Frame != "camera_link" || *got[0].Position != (world.Point{X: 0.5, Y: -0.2}) {
		t.Fatalf("min_score 0.6 keeps the mug alone, in its camera frame: %+v", got)
	}
	// A position in a frame TF cannot reach fails the observation.
	p, g = detectPlan(t, "map", 0, "")
	if _, err := p.detect("objects", g); err == nil || !strings.Contains(err.Error(), "no transform from map to wrist_camera") {
		t.Fatalf("an unreachable frame: %v", err)
	}
}

func TestDetectByExpr(t *testing.T) {
	p, g := detectPlan(t, "", 0, `map(msg.detections, {{name: #.results[0].hypothesis.class_id, score: #.results[0].hypothesis.score, position: {x: #.bbox.center.position.x, y: #.bbox.center.position.y}, frame: 'camera_link'}})`)
	g.msgs["/detections"] = wire.Message{Data: json.RawMessage(`{"detections": [{"results": [{"hypothesis": {"class_id": "mug", "score": 1}}], "bbox": {"center": {"position": {"x": 2, "y": 3}}}}]}`)}
	got, err := p.detect("objects", g)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "mug" || got[0].Score != 1 || *got[0].Position != (world.Point{X: 2, Y: 3}) || got[0].Frame != "camera_link" {
		t.Fatalf("by expr: %+v", got)
	}
	for _, bad := range []string{`[1]`, `[{class: 'x'}]`, `[{name: 3}]`, `[{name: 'a', position: {x: 'near'}}]`} {
		p, g := detectPlan(t, "", 0, bad)
		if _, err := p.detect("objects", g); err == nil {
			t.Errorf("value %s: no error", bad)
		}
	}
}

func TestJointState(t *testing.T) {
	joints, states, err := jointState([]byte(`{"name": ["shoulder", "elbow", "finger"], "position": [0.5, null, 0.02], "velocity": [0.1, 0, -0.3], "effort": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(joints) != 2 || joints["shoulder"] != 0.5 || joints["finger"] != 0.02 {
		t.Fatalf("joints (a null position is unknown, left out): %v", joints)
	}
	s := states["finger"]
	if s.Position != 0.02 || s.Velocity == nil || *s.Velocity != -0.3 || s.Effort != nil {
		t.Fatalf("finger: %+v (effort not measured)", s)
	}
	if _, _, err := jointState([]byte(`{"name": ["a", "b"], "position": [1]}`)); err == nil || !strings.Contains(err.Error(), "2 names but 1 in position") {
		t.Fatalf("short position: %v", err)
	}
}

// FuzzDecodePerception feeds untrusted messages to every perception
// decoder: none panics, and what comes out is bounded and finite.
func FuzzDecodePerception(f *testing.F) {
	f.Add([]byte(mugArray3D))
	f.Add([]byte(`{"transforms": [{"header": {"frame_id": "map"}, "child_frame_id": "odom", "transform": {"translation": {"x": 1e308, "y": 0, "z": 0}, "rotation": {"x": 1e308, "y": 0, "z": 0, "w": 1}}}]}`))
	f.Add([]byte(`{"name": ["a"], "position": [null], "velocity": [1e400]}`))
	f.Add([]byte(`{"detections": [{"results": [{"hypothesis": {"class_id": "\xff\xfe", "score": null}}], "id": 5}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, is3D := range []bool{true, false} {
			got, err := decodeVision(raw, is3D)
			if err != nil {
				continue
			}
			for _, d := range got {
				if d.det.Name == "" || !utf8.ValidString(d.det.Name) || utf8.RuneCountInString(d.det.Name) > maxClassLen+1 || !utf8.ValidString(d.det.ID) {
					t.Fatalf("detection name %q id %q", d.det.Name, d.det.ID)
				}
				if d.pos != nil && (math.IsNaN(d.pos.X) || math.IsInf(d.pos.Y, 0)) {
					t.Fatalf("position %v", d.pos)
				}
			}
		}
		links, _ := perception.DecodeTF(raw)
		tree := perception.Tree{}
		for child, l := range links {
			if n := l.Transform.R.X*l.Transform.R.X + l.Transform.R.Y*l.Transform.R.Y + l.Transform.R.Z*l.Transform.R.Z + l.Transform.R.W*l.Transform.R.W; math.Abs(n-1) > 1e-6 {
				t.Fatalf("%s: rotation of norm² %v", child, n)
			}
			tree[child] = l
		}
		for child, l := range tree {
			if tr, _, _, err := tree.Lookup(l.Parent, child); err == nil {
				_, _ = poseOf(tr, l.Parent) // finite or an error, never a panic
			}
		}
		_, _, _ = jointState(raw)
	})
}

// held: a string is the held object ("" nothing), null unknown (left out),
// anything else an error naming what it should be.
func TestHeldValue(t *testing.T) {
	for _, c := range []struct {
		data  string
		held  string
		known bool
		err   string
	}{
		{`"mug"`, "mug", true, ""},
		{`""`, "", true, ""},
		{`"unknown"`, "", false, ""},
		{`3`, "", false, "not the held object's name"},
	} {
		cfg := Config{Observation: &ObservationDecl{Tool: "observe", Perception: Perception{
			Held: &StateDecl{Topic: "/held", Value: "msg.data == 'unknown' ? nil : msg.data"}}}}
		p, err := compile(withSchemaDefaults(t, cfg))
		if err != nil {
			t.Fatal(err)
		}
		g := gathered{msgs: map[string]wire.Message{"/held": {Data: json.RawMessage(`{"data": ` + c.data + `}`)}}}
		held, known, err := p.heldValue(g)
		if held != c.held || known != c.known || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("data %s: held %q known %v err %v", c.data, held, known, err)
		}
	}
}
