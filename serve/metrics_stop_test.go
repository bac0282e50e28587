package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/thea-harness/thea/telemetry"
)

// An operator's interrupt during a real back-end's motion (a subprocess
// that ends its motion only when its stop tool is called): /metrics counts
// the stop, by how and that it worked, times it, and counts the cancelled
// task and the motion's call by its tool.
func TestMetricsCountARealStop(t *testing.T) {
	m, err := telemetry.NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	spec, started := driveSpec(t, t.TempDir())
	cfg := Config{Metrics: m.Handler()}
	f := startWithSinks(t, spec, driveTurns, cfg, m.Sink)
	id, s := f.driving(started)
	f.stopTask(id, true)
	s.rest()
	code, page := f.raw("GET", "/metrics", nil)
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, page)
	}
	for _, want := range []string{
		`thea_stops_total{ok="true",via="tool"} 1` + "\n",
		`thea_stop_duration_seconds_count{via="tool"} 1` + "\n",
		`thea_safety_events_total{kind="stop"} 1` + "\n",
		`thea_tasks_total{reason="cancelled"} 1` + "\n",
		`thea_tool_calls_total{outcome="failure",tool="drive"} 1` + "\n",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, page)
		}
	}
}
