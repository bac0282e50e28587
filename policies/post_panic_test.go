package policies

import (
	"context"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// panicModel is an evaluator client with a bug.
type panicModel struct{}

func (panicModel) Generate(context.Context, model.Request) (model.Response, error) {
	panic("client bug")
}

// An evaluate hook that panics fails closed: the call gets a failure verdict
// (nothing confirmed it), not silence that the loop reads as success.
func TestPanickingEvaluationIsAFailureVerdict(t *testing.T) {
	s := evidenceSpec()
	tools := &fakeTools{results: map[string]engine.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	p := newPolicy(t, s, tools, panicModel{}, nil)
	var evs []engine.Event
	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
	if res.Verdict == nil || res.Verdict.Status != "failure" {
		t.Fatalf("verdict = %+v, want failure after the evaluation panicked", res.Verdict)
	}
}
