package telemetry_test

import (
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/thea-harness/thea/telemetry"
)

// A real task's events become the metrics: turns, model calls by provider
// and purpose, the hook's decision, the tool that ran by its name, and the
// made-up tool counted without its name (labels never carry what a model
// wrote), all on the exposition page.
func TestMetricsFromATask(t *testing.T) {
	m, err := telemetry.NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	runTask(t, m.Sink)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	page, err := io.ReadAll(rec.Result().Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"thea_turns_total 3\n",
		`thea_tasks_total{reason="final_answer"} 1` + "\n",
		`thea_model_calls_total{model="",outcome="ok",provider="script",purpose="decide"} 3` + "\n",
		`thea_model_call_duration_seconds_count{model="",provider="script",purpose="decide"} 3` + "\n",
		`thea_hook_decisions_total{decision="skip",hook="no_shouting",phase="pre"} 1` + "\n",
		`thea_tool_calls_total{outcome="success",tool="notify_user"} 1` + "\n",
		`thea_tool_call_duration_seconds_count{tool="notify_user"} 1` + "\n",
		"thea_tool_calls_not_run_total 1\n",
		"thea_body_uncertain 0\n",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(string(page), "vault") {
		t.Errorf("a tool name the model made up became a label:\n%s", page)
	}
	if n, err := testutil.GatherAndCount(m.Registry()); err != nil || n == 0 {
		t.Errorf("gathering: %d series, %v", n, err)
	}
}

// The metrics page of the docs is the registry's table, so neither drifts.
func TestMetricsTableIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), telemetry.MetricsTable()) {
		t.Errorf("docs/operations.md does not hold the metrics table; replace it with:\n%s", telemetry.MetricsTable())
	}
}
