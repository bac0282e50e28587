package report

import (
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// A decide call is already the model row; other purposes get their own.
func TestModelCallRows(t *testing.T) {
	if _, ok := rowFor(engine.Event{Kind: engine.EventModelCall, ModelCall: &engine.ModelCall{Purpose: model.PurposeDecide, Text: "go"}}); ok {
		t.Error("a decide call got a second row")
	}
	r, ok := rowFor(engine.Event{Kind: engine.EventModelCall, ModelCall: &engine.ModelCall{Purpose: model.PurposeEvaluate, Text: `{"status":"success"}`}})
	if !ok || r.Label != "model call: evaluate" || r.Text != `{"status":"success"}` {
		t.Errorf("evaluate row %+v %v", r, ok)
	}
	r, _ = rowFor(engine.Event{Kind: engine.EventModelCall, ModelCall: &engine.ModelCall{Purpose: model.PurposeCompact, Error: "timeout"}})
	if r.Status != "fail" || r.Text != "timeout" {
		t.Errorf("failed call row %+v", r)
	}
}
