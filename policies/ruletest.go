package policies

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// TestSummary counts what `thea validate` checked of a spec.
type TestSummary struct {
	Rules  int // expr rules compiled
	Tests  int // rule tests run
	Failed int // rule tests that failed
}

// RunRuleTests runs each of the spec's rule tests offline. A call test goes
// through the pre-execution chain: the test's clearance is the fresh reading
// (none: the fail-closed path), its observation is the current observation,
// its limits override the embodiment's, confirm hooks get its answers (none:
// "no"), the tool's tags come from its contract. A check test judges the
// tool's check on the given before and after observations. Every mismatch
// with the test's expect is a Diagnostic at the test's position.
//
// The hook actions come from the catalog c, as `thea run` resolves them
// (see ActionsOf; nil is this package's own), so a registered action's
// rule tests run what the session would.
func RunRuleTests(ctx context.Context, s *schema.Spec, c *engine.Components) []schema.Diagnostic {
	diags, _ := RunRuleTestsSummary(ctx, s, c)
	return diags
}

// RunRuleTestsSummary is RunRuleTests that also counts rules and tests.
func RunRuleTestsSummary(ctx context.Context, s *schema.Spec, c *engine.Components) ([]schema.Diagnostic, TestSummary) {
	actions, err := ActionsOf(c)
	if err != nil {
		return []schema.Diagnostic{{Pos: s.Pos("tests"), Path: "tests", Message: "rule tests not run: " + err.Error()}},
			TestSummary{Tests: len(s.Tests), Failed: len(s.Tests)}
	}
	spec := *s // shallow: only Rules and limits may be replaced here
	if spec.Rules == nil {
		rules, errs := schema.CompileRules(s)
		if len(errs) > 0 {
			diags := make([]schema.Diagnostic, 0, len(errs))
			for _, e := range errs {
				diags = append(diags, schema.Diagnostic{Pos: s.Pos(e.Path), Path: e.Path,
					Message: "rule tests not run: " + e.Error()})
			}
			return diags, TestSummary{Tests: len(s.Tests), Failed: len(s.Tests)}
		}
		spec.Rules = rules
	}
	sum := TestSummary{Rules: countRules(spec.Rules), Tests: len(s.Tests)}
	var diags []schema.Diagnostic
	for i, tc := range s.Tests {
		path := fmt.Sprintf("tests[%d]", i)
		fails := runOne(ctx, &spec, tc, actions)
		if len(fails) > 0 {
			sum.Failed++
		}
		for _, msg := range fails {
			name := tc.Name
			if name == "" {
				name = path
			}
			diags = append(diags, schema.Diagnostic{Pos: s.Pos(path), Path: path,
				Message: fmt.Sprintf("rule test %q: %s", name, msg)})
		}
	}
	return diags, sum
}

// countRules counts the compiled expressions of a spec.
func countRules(r *schema.Rules) int {
	n := len(r.Checks)
	for _, p := range r.Pre {
		for _, x := range append([]*vm.Program{p.When, p.Rule}, slices.Collect(maps.Values(p.Exprs))...) {
			if x != nil {
				n++
			}
		}
	}
	for _, p := range r.Post {
		if p.When != nil {
			n++
		}
	}
	return n
}

func runOne(ctx context.Context, s *schema.Spec, tc schema.RuleTest, actions *Actions) []string {
	switch {
	case (tc.Call == nil) == (tc.Check == nil):
		return []string{"give either call (a pre-hook test) or check (a check test)"}
	case len(tc.Limits) > 0:
		l, err := s.Embodiment.Limits.With(tc.Limits)
		if err != nil {
			return []string{err.Error()}
		}
		spec := *s
		spec.Embodiment.Limits = l
		s = &spec
	}
	if tc.Check != nil {
		return runCheckTest(s, tc)
	}
	return runRuleTest(ctx, s, tc, actions)
}

// runRuleTest returns the call test's failures, one message each.
func runRuleTest(ctx context.Context, s *schema.Spec, tc schema.RuleTest, actions *Actions) []string {
	if tc.Expect.Verdict != "allow" && tc.Expect.Verdict != "block" {
		return []string{fmt.Sprintf("expect.verdict is %q, want allow or block for a call test", tc.Expect.Verdict)}
	}
	contract, known := s.Tools[tc.Call.Tool]
	if !known && len(s.Tools) > 0 {
		return []string{fmt.Sprintf("call.tool %q has no contract in tools", tc.Call.Tool)}
	}
	// The contract a session would run the call with: physical too when
	// the toolset's transport runs the tool as a motion.
	contract = engine.EffectiveContract(contract, engine.Declared{Physical: s.TransportPhysical(tc.Call.Tool)})
	p, err := NewWithActions(engine.PolicyEnv{
		Spec:  s,
		Tools: testTools{clearanceTool: s.Safety.ClearanceTool, reading: tc.Clearance, readingsTool: readingsTool(s), readings: tc.Readings},
		User:  &testUser{answers: tc.Answers, rest: tc.Confirm != nil && *tc.Confirm},
	}, actions)
	if err != nil {
		return []string{err.Error()}
	}
	args := make(map[string]any, len(tc.Call.Args))
	maps.Copy(args, tc.Call.Args)
	res := p.Pre(ctx, &engine.CallContext{
		Call:        &engine.Call{ID: "rule-test", Tool: tc.Call.Tool, Args: args},
		Tool:        &engine.RegisteredTool{Contract: contract},
		Observation: tc.Observation,
	})
	var fails []string
	got := "block"
	if res.Allowed {
		got = "allow"
	}
	if got != tc.Expect.Verdict {
		detail := ""
		switch prefix := fmt.Sprintf("hook %q", res.Hook); {
		case strings.HasPrefix(res.Reason, prefix):
			detail = " (" + res.Reason + ")" // the reason names its hook already
		case res.Reason != "":
			detail = fmt.Sprintf(" (%s: %s)", prefix, res.Reason)
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

// runCheckTest judges a tool's check on the test's observations, as the
// evaluator would after a successful call.
func runCheckTest(s *schema.Spec, tc schema.RuleTest) []string {
	ct := tc.Check
	if tc.Expect.Verdict != string(world.VerdictSuccess) && tc.Expect.Verdict != string(world.VerdictFailure) {
		return []string{fmt.Sprintf("expect.verdict is %q, want success or failure for a check test", tc.Expect.Verdict)}
	}
	prog := s.Rules.Checks[ct.Tool]
	if prog == nil {
		return []string{fmt.Sprintf("check.tool %q has no check in its contract (tools.%s.check)", ct.Tool, ct.Tool)}
	}
	contract := s.Tools[ct.Tool]
	env := schema.CheckEnv{
		Tool:   schema.ToolInfo{Name: ct.Tool, Tags: contract.Tags, Physical: contract.Physical},
		Args:   ct.Args,
		Before: ct.Before,
		After:  ct.After,
		Result: schema.ResultEnv{Success: true, Value: ct.Result},
		Limits: s.Embodiment.Limits,
	}
	v := judgeCheck(ct.Tool, prog, &env)
	var fails []string
	if string(v.Status) != tc.Expect.Verdict {
		fails = append(fails, fmt.Sprintf("expected %s, got %s (%s)", tc.Expect.Verdict, v.Status, v.Reason))
	}
	if tc.Expect.ReasonContains != "" && !strings.Contains(v.Reason, tc.Expect.ReasonContains) {
		fails = append(fails, fmt.Sprintf("expected a reason containing %q, got %q", tc.Expect.ReasonContains, v.Reason))
	}
	return fails
}

// testTools serves a rule test's clearance reading and safety readings,
// and nothing else.
type testTools struct {
	clearanceTool string
	reading       world.Clearance
	readingsTool  string
	readings      map[string]any
}

// readingsTool is the spec's safety readings tool ("" for none).
func readingsTool(s *schema.Spec) string {
	if s.Safety.Readings == nil {
		return ""
	}
	return s.Safety.Readings.Tool
}

func (t testTools) Read(_ context.Context, _ engine.Purpose, name string, _ map[string]any) runlog.Envelope {
	if name != "" && name == t.readingsTool {
		// A test's readings are taken now: each is 0 s old. A reading the
		// test leaves out is missing, as on a robot whose topic is silent.
		if t.readings == nil {
			return runlog.Failure("the rule test gives no safety readings")
		}
		ages := make(map[string]any, len(t.readings))
		for k := range t.readings {
			ages[k] = 0.0
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"readings": t.readings, "age_s": ages}}
	}
	if name != t.clearanceTool {
		return runlog.Failure(fmt.Sprintf("rule tests call no tool but the clearance source (called %q)", name))
	}
	if t.reading == nil {
		return runlog.Failure("the rule test gives no clearance reading")
	}
	v := make(map[string]any, len(t.reading))
	for k, d := range t.reading {
		v[k] = d
	}
	return runlog.Envelope{Success: true, Value: v}
}

// testUser answers confirmations from the test's answers in order, then
// with its confirm answer.
type testUser struct {
	mu      sync.Mutex
	answers []bool
	asked   int
	rest    bool
}

func (u *testUser) Ask(context.Context, engine.Question) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	yes := u.rest
	if u.asked < len(u.answers) {
		yes = u.answers[u.asked]
	}
	u.asked++
	if yes {
		return "yes", nil
	}
	return "no", nil
}

func (*testUser) Notify(context.Context, string) error { return nil }

// Confirm answers a confirm hook like Ask: a rule test is its own
// confirmation channel.
func (u *testUser) Confirm(ctx context.Context, q engine.Question) (string, error) {
	return u.Ask(ctx, q)
}
