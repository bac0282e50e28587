package rosbridge

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// scanJSON is a LaserScan of n beams over the full circle from angle 0,
// each range given as JSON text ("null" for inf or NaN, as rosbridge sends).
func scanJSON(ranges []string) json.RawMessage {
	inc := 2 * math.Pi / float64(len(ranges))
	return json.RawMessage(fmt.Sprintf(`{"angle_min": 0, "angle_increment": %v, "range_min": 0.12, "range_max": 3.5, "ranges": [%s]}`,
		inc, strings.Join(ranges, ",")))
}

func testPlan(t testing.TB, section string) *plan {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(section), &m); err != nil {
		t.Fatal(err)
	}
	cfg, err := DecodeConfig(m)
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClearanceFromScan: null (inf, NaN) is no return; a range below
// range_min or above range_max is ignored; a sector with no return is clear
// to range_max; a sector no beam covers fails the reading.
func TestClearanceFromScan(t *testing.T) {
	p := testPlan(t, `{"tools": {}, "clearance": {"topic": "/scan"}}`)
	ranges := make([]string, 8) // every 45°: 0 front, 90 left, 180 back, 270 right
	for i := range ranges {
		ranges[i] = "null"
	}
	ranges[0] = "0.05" // front: below range_min (the robot's own body): ignored
	ranges[1] = "1.25" // 45°: the edge shared by front and left
	ranges[2] = "9.0"  // left: beyond range_max: ignored
	ranges[4] = "0.8"  // back
	ranges[6] = "null" // right: no return
	ranges[7] = "2.0"  // -45°: front and right
	got, err := p.clearance(scanJSON(ranges), schema.Embodiment{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"front": 1.25, "left": 1.25, "back": 0.8, "right": 2.0}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %v, want %v (reading %v)", k, got[k], v, got)
		}
	}

	allNull := []string{"null", "null", "null", "null", "null", "null", "null", "null"}
	got, err = p.clearance(scanJSON(allNull), schema.Embodiment{})
	if err != nil || got["front"] != 3.5 {
		t.Fatalf("no return anywhere: %v, %v (want range_max)", got, err)
	}

	narrow := testPlan(t, `{"tools": {}, "clearance": {"topic": "/scan", "sectors": {"up": {"from_deg": 10, "to_deg": 20}}}}`)
	_, err = narrow.clearance(scanJSON(allNull), schema.Embodiment{ClearanceSectors: []schema.Sector{{Name: "up"}}})
	if err == nil || !strings.Contains(err.Error(), "no beam") {
		t.Fatalf("a sector between beams: %v", err)
	}
}

// BenchmarkObservationAssembly builds one observation from the latest
// message of each topic: odometry, a 360-beam scan, a 20 KB JPEG and the
// battery (two state fields).
func BenchmarkObservationAssembly(b *testing.B) {
	p := testPlan(b, `{"tools": {}, "observation": {
		"cameras": {"front": {"topic": "/camera"}}, "pose": {"topic": "/odom"},
		"state": {"battery": {"topic": "/battery", "value": "msg.percentage"}, "charging": {"topic": "/battery", "value": "msg.power_supply_status == 1"}}},
		"clearance": {"topic": "/scan"}}`)
	ranges := make([]string, 360)
	for i := range ranges {
		ranges[i] = fmt.Sprint(0.5 + float64(i%50)/20)
		if i%37 == 0 {
			ranges[i] = "null"
		}
	}
	jpeg := base64.StdEncoding.EncodeToString(make([]byte, 20<<10))
	now := time.Now()
	msgs := map[string]wire.Message{
		"/odom":    {Data: json.RawMessage(`{"header": {"frame_id": "odom"}, "pose": {"pose": {"position": {"x": 1.5, "y": -0.25, "z": 0}, "orientation": {"x": 0, "y": 0, "z": 0.3826834, "w": 0.9238795}}, "covariance": []}}`), Received: now},
		"/camera":  {Data: json.RawMessage(`{"format": "jpeg", "data": "` + jpeg + `"}`), Received: now},
		"/battery": {Data: json.RawMessage(`{"percentage": 0.87, "power_supply_status": 2, "temperature": null, "voltage": 11.9}`), Received: now},
	}
	scan := wire.Message{Data: scanJSON(ranges), Received: now}
	emb := schema.Embodiment{Cameras: []schema.Camera{{Name: "front", Width: 640, Height: 480}}}
	b.ReportAllocs()
	for b.Loop() {
		env, err := p.assemble(msgs, &scan, emb)
		if err != nil || len(env.Images) != 1 {
			b.Fatal(err)
		}
	}
}
