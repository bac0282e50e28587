package rosbridge

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReadingValues: a Range reads msg.range, a Bool and a number
// msg.data, any other type its declared value; the tool's name must not be
// taken by another of the toolset's tools.
func TestReadingValues(t *testing.T) {
	p := testPlan(t, `{"tools": {}, "readings": {"sources": {
		"sonar": {"topic": "/sonar", "type": "sensor_msgs/msg/Range"},
		"curtain": {"topic": "/curtain", "type": "std_msgs/msg/Bool"},
		"count": {"topic": "/count", "type": "std_msgs/msg/UInt16"},
		"estop": {"topic": "/estop", "type": "my_msgs/msg/Safety", "value": "msg.stop.engaged || msg.stop.pending"}}}}`)
	for name, tc := range map[string]struct {
		msg  string
		want any
	}{
		"sonar":   {`{"range": 0.42, "min_range": 0.02, "max_range": 4.0, "radiation_type": 0}`, 0.42},
		"curtain": {`{"data": false}`, false},
		"count":   {`{"data": 7}`, 7.0},
		"estop":   {`{"stop": {"engaged": false, "pending": true}}`, true},
	} {
		var msg any
		if err := json.Unmarshal([]byte(tc.msg), &msg); err != nil {
			t.Fatal(err)
		}
		got, err := run(p.readings[name], "msg", msg)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", name, got, err, tc.want)
		}
	}
	if p.cfg.Readings.Sources["sonar"].MaxAge != "500ms" {
		t.Errorf("default max_age %q, want 500ms", p.cfg.Readings.Sources["sonar"].MaxAge)
	}

	cfg, err := DecodeConfig(section(t, `{"tools": {}, "clearance": {"topic": "/scan", "tool": "safety"}, "readings": {"tool": "safety", "sources": {"c": {"topic": "/c", "type": "std_msgs/msg/Bool"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compile(cfg); err == nil || !strings.Contains(err.Error(), `readings.tool: "safety" is already clearance.tool`) {
		t.Fatalf("a readings tool named like the clearance tool: %v", err)
	}
}

func section(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
