package policies

import (
	"context"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
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
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	p := newPolicy(t, s, tools, panicModel{}, nil)
	var evs []runlog.Event
	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
	if res.Verdict == nil || res.Verdict.Status != "failure" {
		t.Fatalf("verdict = %+v, want failure after the evaluation panicked", res.Verdict)
	}
}

// Failing closed is what a judging action declares, not its name: a judge
// registered under another name that panics also yields a failure verdict,
// and a non-judging action that panics leaves the verdict alone.
func TestJudgeFailsClosedByItsDescriptor(t *testing.T) {
	for _, judge := range []bool{true, false} {
		s := evidenceSpec()
		s.Hooks.Post[0].Action = "grade"
		rules, errs := schema.CompileRules(s)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		s.Rules = rules
		actions := NewActions()
		actions.Post["grade"] = func(context.Context, *PostCall) runlog.Decision { panic("grader bug") }
		actions.Judges["grade"] = judge
		p, err := NewWithActions(engine.PolicyEnv{Spec: s, Tools: &fakeTools{}}, actions)
		if err != nil {
			t.Fatal(err)
		}
		var evs []runlog.Event
		res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
		if failed := res.Verdict != nil && res.Verdict.Status == "failure"; failed != judge {
			t.Errorf("judge %v: verdict %+v", judge, res.Verdict)
		}
	}
}
