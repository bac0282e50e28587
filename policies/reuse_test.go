package policies

import (
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Model back-ends may reuse tool-call ids across turns. A call the pre chain
// refused (which the engine never hands to Post) must not mark a later,
// allowed call with the same id as refused: that call is evaluated.
func TestReusedCallIDIsEvaluatedAfterARefusal(t *testing.T) {
	s := evidenceSpec()
	s.Hooks.Pre = append(s.Hooks.Pre, schema.PreHook{Name: "no_knives", Action: "block", Rule: "args.object_name == 'knife'"})
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	m := &fakeModel{text: `{"status": "failure", "reason": "mug dropped", "confidence": 0.9}`}
	p := newPolicy(t, s, tools, m, nil)
	var evs []runlog.Event
	if p.Pre(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "knife"}, &evs)).Allowed {
		t.Fatalf("the knife was allowed")
	}
	cc := callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs) // same id "c1", a later turn
	if !p.Pre(t.Context(), cc).Allowed {
		t.Fatalf("the mug was blocked")
	}
	res := p.Post(t.Context(), cc, executed())
	if res.Verdict == nil || res.Verdict.Status != "failure" || len(m.reqs) != 1 {
		t.Fatalf("verdict = %+v after %d model calls: the executed pick_up was not evaluated", res.Verdict, len(m.reqs))
	}
}
