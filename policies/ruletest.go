package policies

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// RunRuleTests runs each of the spec's rule tests through the pre-execution
// chain offline: the test's clearance is the fresh reading (none: the
// fail-closed path), confirm hooks get the test's answer (none: "no"), the
// tool's tags come from its contract. Every mismatch with the test's expect
// is a Diagnostic at the test's position.
func RunRuleTests(ctx context.Context, s *schema.Spec) []schema.Diagnostic {
	if len(s.Tests) == 0 {
		return nil
	}
	spec := *s // shallow: only Rules may be filled in here
	if spec.Rules == nil {
		rules, errs := schema.CompileRules(s)
		if len(errs) > 0 {
			diags := make([]schema.Diagnostic, 0, len(errs))
			for _, e := range errs {
				diags = append(diags, schema.Diagnostic{Pos: s.Pos(e.Path), Path: e.Path,
					Message: "rule tests not run: " + e.Error()})
			}
			return diags
		}
		spec.Rules = rules
	}
	var diags []schema.Diagnostic
	for i, tc := range s.Tests {
		path := fmt.Sprintf("tests[%d]", i)
		for _, msg := range runRuleTest(ctx, &spec, tc) {
			name := tc.Name
			if name == "" {
				name = path
			}
			diags = append(diags, schema.Diagnostic{Pos: s.Pos(path), Path: path,
				Message: fmt.Sprintf("rule test %q: %s", name, msg)})
		}
	}
	return diags
}

// runRuleTest returns the test's failures, one message each.
func runRuleTest(ctx context.Context, s *schema.Spec, tc schema.RuleTest) []string {
	if tc.Expect.Verdict != "allow" && tc.Expect.Verdict != "block" {
		return []string{fmt.Sprintf("expect.verdict is %q, want allow or block", tc.Expect.Verdict)}
	}
	contract, known := s.Tools[tc.Call.Tool]
	if !known && len(s.Tools) > 0 {
		return []string{fmt.Sprintf("call.tool %q has no contract in tools", tc.Call.Tool)}
	}
	answer := "no"
	if tc.Confirm != nil && *tc.Confirm {
		answer = "yes"
	}
	p, err := NewWithActions(engine.PolicyEnv{
		Spec:  s,
		Tools: testTools{clearanceTool: s.Safety.ClearanceTool, reading: tc.Clearance},
		User:  testUser(answer),
	}, NewActions())
	if err != nil {
		return []string{err.Error()}
	}
	args := make(map[string]any, len(tc.Call.Args))
	for k, v := range tc.Call.Args {
		args[k] = v
	}
	res := p.Pre(ctx, &engine.CallContext{
		Call: &engine.Call{ID: "rule-test", Tool: tc.Call.Tool, Args: args},
		Tool: &engine.RegisteredTool{Contract: contract},
	})
	var fails []string
	got := "block"
	if res.Allowed {
		got = "allow"
	}
	if got != tc.Expect.Verdict {
		detail := ""
		if res.Reason != "" {
			detail = fmt.Sprintf(" (hook %q: %s)", res.Hook, res.Reason)
		}
		fails = append(fails, fmt.Sprintf("expected %s, got %s%s", tc.Expect.Verdict, got, detail))
	}
	for _, k := range slices.Sorted(maps.Keys(tc.Expect.Args)) {
		want := tc.Expect.Args[k]
		v, ok := res.Args[k]
		switch {
		case !ok:
			fails = append(fails, fmt.Sprintf("expected argument %s = %v, but it is missing", k, want))
		case !sameValue(v, want):
			fails = append(fails, fmt.Sprintf("expected argument %s = %v, got %v", k, want, v))
		}
	}
	if tc.Expect.Hook != "" && res.Hook != tc.Expect.Hook {
		fails = append(fails, fmt.Sprintf("expected hook %q to decide, got %q", tc.Expect.Hook, res.Hook))
	}
	if tc.Expect.ReasonContains != "" && !strings.Contains(res.Reason, tc.Expect.ReasonContains) {
		fails = append(fails, fmt.Sprintf("expected a reason containing %q, got %q", tc.Expect.ReasonContains, res.Reason))
	}
	return fails
}

// testTools serves a rule test's clearance reading and nothing else.
type testTools struct {
	clearanceTool string
	reading       *schema.Clearance
}

func (t testTools) CallTool(_ context.Context, name string, _ map[string]any) engine.Envelope {
	if name != t.clearanceTool {
		return engine.Failure(fmt.Sprintf("rule tests call no tool but the clearance source (called %q)", name))
	}
	if t.reading == nil {
		return engine.Failure("the rule test gives no clearance reading")
	}
	c := t.reading
	return engine.Envelope{Success: true, Value: map[string]any{"front": c.Front, "back": c.Back, "left": c.Left, "right": c.Right}}
}

func (testTools) Lookup(string) (*engine.RegisteredTool, bool) { return nil, false }

// testUser answers every confirmation with the test's answer.
type testUser string

func (u testUser) Ask(context.Context, engine.Question) (string, error) { return string(u), nil }

func (testUser) Notify(context.Context, string) error { return nil }

// Confirm is the rule test's confirmation answer.
func (u testUser) Confirm(context.Context, engine.Question) (string, error) { return string(u), nil }
