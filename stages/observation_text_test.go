package stages

import (
	"encoding/json"
	"strings"
	"testing"
)

// The household simulator's observation, as it arrives over MCP.
const householdObservation = `{"clearance":{"back":5,"front":0.1,"left":2.2,"right":2.2},
"detections":[{"camera":"head","class":"mug","distance_m":0.6,"name":"mug","position":{"x":11.15,"y":2.5},"relation":"on","room":"kitchen","target":"table","visible":true},
{"camera":"wrist","class":"mug","distance_m":0.6,"name":"mug","position":{"x":11.15,"y":2.5},"relation":"on","room":"kitchen","target":"table","visible":true}],
"images":[{"camera":"head","height":240,"mime":"image/png","width":320},{"camera":"wrist","height":120,"mime":"image/png","width":160}],
"pose":{"room":"kitchen","theta_deg":0,"x":10.55,"y":2.5},"held":"",
"state":{"drawers":{"bottom_drawer":"closed","top_drawer":"closed"}},
"summary":"In the kitchen at (10.55, 2.50) facing 0°; gripper empty; sees mug on table at 0.60 m."}`

func TestObservationText(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal([]byte(householdObservation), &v); err != nil {
		t.Fatal(err)
	}
	want := `summary: In the kitchen at (10.55, 2.50) facing 0°; gripper empty; sees mug on table at 0.60 m.
pose: (10.55, 2.50) facing 0°, room kitchen
held: nothing
clearance: back 5.00, front 0.10, left 2.20, right 2.20 (m)
detections: mug on table, room kitchen, at (11.15, 2.50), 0.60 m away, seen by head+wrist
state: drawers (bottom_drawer closed, top_drawer closed)
images: head 320x240 image/png, wrist 160x120 image/png`
	if got := observationText(v, false); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// The Brief's robot line says the pose and what is held.
	if got := observationText(v, true); strings.Contains(got, "pose:") || strings.Contains(got, "held:") {
		t.Fatalf("with the robot in the Brief:\n%s", got)
	}
	if b, err := json.Marshal(v); err != nil || len(observationText(v, false)) >= len(b) {
		t.Fatalf("the text (%d bytes) is not shorter than the JSON (%d)", len(observationText(v, false)), len(b))
	}
}

// Fields of no documented shape, and documented fields in another shape,
// are written generically; nothing is dropped.
func TestObservationTextOtherShapes(t *testing.T) {
	type reading struct {
		Volts float64 `json:"volts"`
		OK    bool    `json:"ok"`
	}
	v := map[string]any{
		"pose":       map[string]any{"x": 1, "y": 2, "floor": "B2"},                        // an extra part: kept with the pose
		"detections": []any{map[string]any{"name": "door", "visible": false, "id": "d-7"}}, // an id beside the documented fields
		"clearance":  map[string]any{"curtain": "broken"},                                  // not metres
		"battery":    reading{Volts: 23.9, OK: true},                                       // a builtin tool's Go value
		"joints":     map[string]any{"elbow": 1.2e-7, "wrist": -0.5},
		"note":       "first line\nsecond line",
		"tags":       []any{"a, b", "c"},
	}
	want := `pose: (1.00, 2.00), floor B2
clearance: curtain broken
detections: door, not visible, id d-7
joints: elbow 1.2e-07, wrist -0.5
battery: ok true, volts 23.9
note: first line
  second line
tags: "a, b", c`
	if got := observationText(v, true); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
