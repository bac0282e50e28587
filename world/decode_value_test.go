package world

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/thea-harness/thea/internal/anyjson"
)

// roundTrip is the reference decodeDirect must agree with.
func roundTrip(t *testing.T, v any) (Observation, error) {
	t.Helper()
	var obs Observation
	b, err := anyjson.Marshal(v)
	if err != nil {
		return obs, err
	}
	return obs, json.Unmarshal(b, &obs)
}

func TestDecodeDirectMatchesRoundTrip(t *testing.T) {
	full := map[string]any{
		"run_id":    "r1",
		"clearance": map[string]any{"front": 0.4, "back": 2},
		"detections": []any{
			map[string]any{"name": "mug", "class": "cup", "camera": "head", "relation": "on", "target": "table",
				"room": "kitchen", "distance_m": 1.25, "visible": true, "position": map[string]any{"x": math.Copysign(0, -1), "y": 3}, "id": "t7", "frame": "camera", "score": 0.9},
			map[string]any{},
		},
		"held":         "",
		"pose":         map[string]any{"x": 1e-9, "y": 1e20, "theta_deg": 90, "room": "hall", "frame": "odom"},
		"images":       []any{map[string]any{"camera": "head", "mime": "image/png", "width": 640, "height": 480.0}},
		"state":        map[string]any{"battery": 0.5, "n": 3, "tags": []any{"a", true, nil, map[string]any{}}, "none": nil},
		"summary":      "kitchen ✓",
		"joints":       map[string]any{"shoulder": 0.1},
		"end_effector": map[string]any{"frame": "base", "x": 0.1, "y": 0.2, "z": 0.3, "roll_deg": 1, "pitch_deg": 2, "yaw_deg": 3},
		"gripper":      map[string]any{"opening_m": 0.02, "closed": false, "force_n": 5},
		"joint_states": map[string]any{"elbow": map[string]any{"position": 0.5, "velocity": 0, "effort": -1.5}, "wrist": map[string]any{"position": 1}},
		"frames":       map[string]any{"tool0": map[string]any{"frame": "base_link", "x": 0.1, "y": 0.2, "z": 0.3}},
	}
	direct := []any{
		full,
		map[string]any{},
		map[string]any{"detections": []any{}, "state": map[string]any{}, "clearance": map[string]any{}, "pose": map[string]any{}},
	}
	for i, v := range direct {
		got, ok := decodeDirect(v)
		if !ok {
			t.Fatalf("case %d: not decoded directly", i)
		}
		want, err := roundTrip(t, v)
		if err != nil {
			t.Fatalf("case %d: round trip: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("case %d:\n got %#v\nwant %#v", i, got, want)
		}
	}
	// Values the round trip coerces, ignores or refuses are left to it.
	refused := []any{
		nil,
		map[string]any(nil),
		"text",
		map[string]any{"Summary": "x"},
		map[string]any{"extra": 1},
		map[string]any{"summary": nil},
		map[string]any{"summary": 3},
		map[string]any{"summary": "\xff"},
		map[string]any{"pose": map[string]any{"x": math.NaN()}},
		map[string]any{"pose": map[string]any{"x": int64(3)}},
		map[string]any{"images": []any{map[string]any{"width": 1.5}}},
		map[string]any{"detections": []any{map[string]any{"name": "a", "confidence": 0.9}}},
		map[string]any{"detections": []any(nil)},
		map[string]any{"state": map[string]any{"s": []string{"a"}}},
		map[string]any{"state": []any{}},
		map[string]any{"clearance": map[string]any{"front": "near"}},
		map[string]any{"gripper": map[string]any{"closed": "yes"}},
		map[string]any{"joint_states": map[string]any{"elbow": map[string]any{"velocity": 1.0}}},
		map[string]any{"frames": map[string]any{"tool0": 1.0}},
	}
	for i, v := range refused {
		if got, ok := decodeDirect(v); ok {
			t.Errorf("refused case %d (%#v): decoded directly as %#v", i, v, got)
		}
	}
}

// TestDecodeDirectRandom mutates the full observation at random (a field
// dropped, a value replaced by one of another type): whenever decodeDirect
// accepts, it must agree with the round trip.
func TestDecodeDirectRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 20))
	values := []any{nil, "s", "\xfe", 1.5, 2, math.Copysign(0, -1), 1e300, true, int64(4), map[string]any{}, []any{}, []any{"x"}, map[string]any{"x": 1.0, "y": 2}}
	accepted := 0
	for n := range 3000 {
		v := sample(r, values)
		got, ok := decodeDirect(v)
		if !ok {
			continue
		}
		accepted++
		want, err := roundTrip(t, v)
		if err != nil {
			t.Fatalf("sample %d (%#v): accepted directly, but the round trip fails: %v", n, v, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sample %d (%#v):\n got %#v\nwant %#v", n, v, got, want)
		}
	}
	if accepted < 300 {
		t.Fatalf("only %d of 3000 samples decoded directly: the test checks too little", accepted)
	}
}

func sample(r *rand.Rand, values []any) any {
	pick := func() any { return values[r.IntN(len(values))] }
	m := map[string]any{}
	set := func(k string, v any) {
		if r.IntN(5) == 0 {
			v = pick()
		}
		if r.IntN(3) > 0 {
			m[k] = v
		}
	}
	set("summary", "kitchen")
	set("held", "mug")
	set("pose", map[string]any{"x": 1.0, "y": 2, "theta_deg": 30.5})
	set("clearance", map[string]any{"front": 0.5})
	set("detections", []any{map[string]any{"name": "mug", "visible": true, "distance_m": 2, "position": map[string]any{"x": 1.0, "y": 0.5}}})
	set("images", []any{map[string]any{"camera": "head", "mime": "image/jpeg", "width": 320.0}})
	set("state", map[string]any{"k": pick(), "l": []any{pick()}})
	set("gripper", map[string]any{"opening_m": 0.1, "closed": true})
	return m
}

// A field the back-end did not send is unknown, one sent empty (held "",
// detections []) is known, on the direct path and on the round trip (a
// null forces it), and in the run log's JSON of the observation.
func TestDecodeKeepsAbsentApartFromEmpty(t *testing.T) {
	for _, v := range []map[string]any{
		{"held": "", "detections": []any{}, "summary": "s"},
		{"held": "", "detections": []any{}, "summary": "s", "pose": nil},
	} {
		obs, err := DecodeValue(v)
		if err != nil {
			t.Fatal(err)
		}
		for f, want := range map[string]bool{FieldHeld: true, FieldDetections: true, FieldSummary: true,
			FieldPose: false, FieldState: false, FieldGripper: false, FieldClearance: false} {
			if got := obs.Known(f); got != want {
				t.Errorf("%v: Known(%s) = %v, want %v", v, f, got, want)
			}
		}
		b, err := json.Marshal(obs)
		if err != nil {
			t.Fatal(err)
		}
		var back Observation
		if err := json.Unmarshal(b, &back); err != nil || !back.Known(FieldHeld) || back.Known(FieldState) {
			t.Errorf("run log JSON %s loses what was sent (%v)", b, err)
		}
	}
}
