package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

func TestBudget(t *testing.T) {
	type step struct {
		tool   string
		arg    float64
		failed bool
	}
	cfg := schema.Safety{
		FailureBudget: schema.FailureBudget{Consecutive: 3, Total: 4},
		LoopDetection: schema.LoopDetection{Enabled: true, Repeats: 3},
	}
	tests := []struct {
		name   string
		cfg    schema.Safety
		steps  []step
		endAt  int // index of the step that ends the task, -1 for none
		reason engine.DoneReason
		report string
	}{
		{name: "consecutive failures", cfg: cfg,
			steps: []step{{"a", 1, true}, {"b", 1, true}, {"a", 2, true}},
			endAt: 2, reason: engine.DoneFailureBudget, report: "3 failed calls in a row"},
		{name: "a success resets the run of failures", cfg: cfg,
			steps: []step{{"a", 1, true}, {"b", 1, true}, {"a", 2, false}, {"a", 3, true}},
			endAt: -1},
		{name: "total failures", cfg: cfg,
			steps: []step{{"a", 1, true}, {"b", 1, true}, {"a", 2, false}, {"a", 3, true}, {"b", 5, true}},
			endAt: 4, reason: engine.DoneFailureBudget, report: "4 failed calls in this task"},
		{name: "the same call repeated", cfg: cfg,
			steps: []step{{"a", 1, false}, {"a", 1, false}, {"a", 1, false}},
			endAt: 2, reason: engine.DoneLoopDetected, report: "a was called with the same arguments 3 times"},
		{name: "different arguments are not a loop", cfg: cfg,
			steps: []step{{"a", 1, false}, {"a", 2, false}, {"a", 1, false}, {"a", 2, false}},
			endAt: -1},
		{name: "loop detection off", cfg: schema.Safety{},
			steps: []step{{"a", 1, true}, {"a", 1, true}, {"a", 1, true}, {"a", 1, true}, {"a", 1, true}},
			endAt: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBudget(tt.cfg)
			end := -1
			var reason engine.DoneReason
			var report string
			for i, s := range tt.steps {
				if reason, report = b.Record(s.tool, map[string]any{"x": s.arg, "y": "z"}, s.failed); reason != "" {
					end = i
					break
				}
			}
			if end != tt.endAt || reason != tt.reason || !strings.Contains(report, tt.report) {
				t.Errorf("ended at %d with %q %q, want %d with %q %q", end, reason, report, tt.endAt, tt.reason, tt.report)
			}
		})
	}
}
