package telemetry

import (
	"fmt"
	"strings"
)

// metricDef is one metric's identity: the registry is built from these and
// the documentation's table is rendered from them, so neither can drift.
type metricDef struct {
	Name   string
	Type   string // counter | histogram | gauge
	Help   string
	Labels []string
	// Buckets are a histogram's upper bounds, in seconds.
	Buckets []float64
}

// Metric names. Every label's values come from the spec or from the
// engine's own vocabulary (providers, models, tools, hooks, kinds), never
// from what a model wrote, so the number of series stays bounded.
const (
	mTasks            = "thea_tasks_total"
	mTurns            = "thea_turns_total"
	mModelCalls       = "thea_model_calls_total"
	mModelSeconds     = "thea_model_call_duration_seconds"
	mModelTokens      = "thea_model_tokens_total"
	mModelRetries     = "thea_model_retries_total"
	mToolCalls        = "thea_tool_calls_total"
	mToolSeconds      = "thea_tool_call_duration_seconds"
	mToolsNotRun      = "thea_tool_calls_not_run_total"
	mHookDecisions    = "thea_hook_decisions_total"
	mVerdicts         = "thea_verdicts_total"
	mStops            = "thea_stops_total"
	mStopSeconds      = "thea_stop_duration_seconds"
	mSafetyEvents     = "thea_safety_events_total"
	mRestarts         = "thea_backend_restarts_total"
	mUncertain        = "thea_body_uncertain"
	mUncertainSeconds = "thea_body_uncertain_seconds_total"
	mBudgets          = "thea_budget_exhausted_total"
	mCompactions      = "thea_compactions_total"
	mSinkErrors       = "thea_sink_errors_total"
)

// definitions lists every metric Thea exports, in the order the docs show.
func definitions() []metricDef {
	model := []string{"provider", "model", "purpose"}
	// 50 ms to ~100 s: a local model to a slow hosted one.
	modelBuckets := []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100}
	// 10 ms to 5 min: a reading to a long navigation.
	toolBuckets := []float64{0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}
	// 5 ms to 30 s: a stop service to a kill after stop_grace.
	stopBuckets := []float64{0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	return []metricDef{
		{Name: mTasks, Type: "counter", Help: "Tasks ended, by why they ended (done reason).", Labels: []string{"reason"}},
		{Name: mTurns, Type: "counter", Help: "Turns started."},
		{Name: mModelCalls, Type: "counter", Help: "Model calls, by provider, model, purpose and outcome (ok or error).", Labels: append(model, "outcome")},
		{Name: mModelSeconds, Type: "histogram", Help: "Model call latency in seconds.", Labels: model, Buckets: modelBuckets},
		{Name: mModelTokens, Type: "counter", Help: "Tokens the provider reported, by type (input, cached_input, output).", Labels: append(model, "type")},
		{Name: mModelRetries, Type: "counter", Help: "Model call attempts that failed and were retried.", Labels: []string{"purpose"}},
		{Name: mToolCalls, Type: "counter", Help: "Tool calls that ran, by tool and outcome (success or failure).", Labels: []string{"tool", "outcome"}},
		{Name: mToolSeconds, Type: "histogram", Help: "Tool call latency in seconds, from the call to its result.", Labels: []string{"tool"}, Buckets: toolBuckets},
		{Name: mToolsNotRun, Type: "counter", Help: "Tool calls answered without running (unknown tool, bad arguments, blocked, cancelled)."},
		{Name: mHookDecisions, Type: "counter", Help: "Hook decisions, by hook, phase (pre or post) and decision.", Labels: []string{"hook", "phase", "decision"}},
		{Name: mVerdicts, Type: "counter", Help: "Evaluator verdicts, by status (success, failure, process).", Labels: []string{"status"}},
		{Name: mStops, Type: "counter", Help: "Stops of an interrupted motion, by how (tool, cancel, declared, kill) and whether it worked.", Labels: []string{"via", "ok"}},
		{Name: mStopSeconds, Type: "histogram", Help: "How long a stop took, in seconds.", Labels: []string{"via"}, Buckets: stopBuckets},
		{Name: mSafetyEvents, Type: "counter", Help: "Safety events of the body layer and transports, by kind.", Labels: []string{"kind"}},
		{Name: mRestarts, Type: "counter", Help: "Back-ends started again after a crash (or a rosbridge reconnect)."},
		{Name: mUncertain, Type: "gauge", Help: "1 while the body's state is uncertain (a motion may have run unobserved), else 0."},
		{Name: mUncertainSeconds, Type: "counter", Help: "Seconds the body's state was uncertain, counted when it is cleared."},
		{Name: mBudgets, Type: "counter", Help: "Tasks ended by a budget, by budget (max_turns, failure_budget, loop_detected).", Labels: []string{"budget"}},
		{Name: mCompactions, Type: "counter", Help: "Compaction attempts, by outcome (ok or failed).", Labels: []string{"outcome"}},
		{Name: mSinkErrors, Type: "counter", Help: "Events another sink lost (the run log, a stream)."},
	}
}

// MetricsTable is the documentation's table of the metrics, in Markdown.
func MetricsTable() string {
	var b strings.Builder
	b.WriteString("| metric | type | labels | what it counts |\n|---|---|---|---|\n")
	for _, d := range definitions() {
		labels := "—"
		if len(d.Labels) > 0 {
			labels = "`" + strings.Join(d.Labels, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", d.Name, d.Type, labels, d.Help)
	}
	return b.String()
}
