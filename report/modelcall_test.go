package report

import (
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// A decide call is already the model row; other purposes get their own.
func TestModelCallRows(t *testing.T) {
	if _, ok := rowFor(runlog.Event{Kind: runlog.EventModelCall, ModelCall: &runlog.ModelCall{Purpose: model.PurposeDecide, Text: "go"}}); ok {
		t.Error("a decide call got a second row")
	}
	r, ok := rowFor(runlog.Event{Kind: runlog.EventModelCall, ModelCall: &runlog.ModelCall{Purpose: model.PurposeEvaluate, Text: `{"status":"success"}`}})
	if !ok || r.Label != "model call: evaluate" || r.Text != `{"status":"success"}` {
		t.Errorf("evaluate row %+v %v", r, ok)
	}
	r, _ = rowFor(runlog.Event{Kind: runlog.EventModelCall, ModelCall: &runlog.ModelCall{Purpose: model.PurposeCompact, Error: "timeout"}})
	if r.Status != "fail" || r.Text != "timeout" {
		t.Errorf("failed call row %+v", r)
	}
}

// A retried attempt is a row of its own: attempt, status, the provider's
// message, the wait.
func TestRetryRow(t *testing.T) {
	r, ok := rowFor(runlog.Event{Kind: runlog.EventModelRetry, Turn: 2, Retry: &model.Retry{Provider: "anthropic", Attempt: 1, Status: 529,
		WaitMS: 3000, RetryAfter: true, Message: "Overloaded (overloaded_error)"}})
	if !ok || r.Kind != "retry" || r.Status != "warn" || r.Label != "model call retried (attempt 1 failed)" ||
		r.Text != "anthropic: HTTP 529: Overloaded (overloaded_error) — waited 3s (the server's Retry-After)" {
		t.Errorf("row %+v %v", r, ok)
	}
}
