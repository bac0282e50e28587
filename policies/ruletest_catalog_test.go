package policies_test

import (
	"context"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// speedCap is an integrator's own pre-hook action: it lowers args.speed to
// the hook's cap and allows the call.
type speedCap struct {
	Cap float64 `json:"cap"`
}

func speedCapAction() policies.PreActionKind {
	return policies.TypedPreAction("speed_cap", "cap args.speed", "cap!: number & >0", nil,
		func(_ context.Context, c *policies.PreCall, cfg speedCap) policies.Step {
			v, _ := c.Args["speed"].(float64)
			if v <= cfg.Cap {
				return policies.Step{Decision: runlog.DecisionAllow, Stop: true}
			}
			c.Args["speed"] = cfg.Cap
			return policies.Step{Decision: runlog.DecisionRewrite, Reason: "speed capped", Stop: true,
				Before: map[string]any{"speed": v}, After: map[string]any{"speed": cfg.Cap}}
		})
}

// A hook action registered in the build's catalog validates, so its rule
// tests must run it too: validate resolves actions through the catalog
// `thea run` builds the policy from, not a table of its own.
func TestRuleTestsRunRegisteredActions(t *testing.T) {
	c := componentstest.Default(t)
	if err := c.Add(speedCapAction()); err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{"testdata/custom_action.yaml"}, schema.LoadOptions{Descriptors: c.Descriptors(), Context: t.Context()})
	if s == nil {
		t.Fatalf("the spec does not load: %v", diags)
	}
	got, sum := policies.RunRuleTestsSummary(t.Context(), s, c)
	if len(got) != 0 {
		t.Errorf("rule tests of a registered action failed under validate: %v", got)
	}
	if sum.Tests != 2 || sum.Failed != 0 {
		t.Errorf("summary %+v, want 2 tests run and none failed", sum)
	}

	// The same spec's policy under `thea run` takes its actions from the
	// same catalog: what the rule tests approved is what runs.
	p, err := policies.New(engine.PolicyEnv{Spec: s, Components: c})
	if err != nil {
		t.Fatalf("the session's policy: %v", err)
	}
	res := p.Pre(t.Context(), &engine.CallContext{
		Call: &engine.Call{ID: "c1", Tool: "query_user", Args: map[string]any{"question": "go", "speed": 2.5}},
		Tool: &engine.RegisteredTool{Contract: s.Tools["query_user"]},
	})
	if !res.Allowed || res.Args["speed"] != 0.25 {
		t.Errorf("the session's policy gave %+v, want the call allowed with speed 0.25", res)
	}
}

// A catalog without the action the spec names fails the rule tests with
// the reason, at the tests' position: never a silent pass.
func TestRuleTestsWithoutTheActionFail(t *testing.T) {
	c := componentstest.Default(t)
	if err := c.Add(speedCapAction()); err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{"testdata/custom_action.yaml"}, schema.LoadOptions{Descriptors: c.Descriptors(), Context: t.Context()})
	if s == nil {
		t.Fatalf("the spec does not load: %v", diags)
	}
	got, sum := policies.RunRuleTestsSummary(t.Context(), s, componentstest.Default(t))
	if len(got) == 0 || sum.Failed == 0 {
		t.Fatalf("rule tests passed against a catalog without speed_cap: %v %+v", got, sum)
	}
}
