package policies

import (
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

const benchRule = "'base_motion' in tool.tags && clearance.toward(args.direction) - limits.safety_margin_m > limits.min_clearance_m"

func benchEnv() *schema.CallEnv {
	l := schema.Limits{MinClearanceM: 0.3, SafetyMarginM: 0.1}
	return &schema.CallEnv{
		Tool:      schema.ToolInfo{Name: "move_base", Tags: []string{"base_motion"}, Physical: true},
		Args:      map[string]any{"direction": "front", "distance_m": 0.5},
		Clearance: schema.NewClearanceEnv(world.Clearance{"front": 1, "back": 1, "left": 1, "right": 1}, schema.DefaultSectors(), l),
		Limits:    l,
	}
}

// BenchmarkRule is one compiled rule evaluation, reusing a VM as the chain
// does: the household's boxed-in rule and a clearance-in-direction rule.
func BenchmarkRule(b *testing.B) {
	for _, rule := range []struct{ name, src string }{
		{"boxed_in", "!clearance.any_admissible"},
		{"toward", benchRule},
	} {
		b.Run(rule.name, func(b *testing.B) {
			p, err := expr.Compile(rule.src, expr.Env(schema.CallEnv{}), expr.AsBool())
			if err != nil {
				b.Fatal(err)
			}
			env := benchEnv()
			env.Clearance.AnyAdmissible = rule.name == "toward" // both rules hold
			var machine vm.VM
			b.ReportAllocs()
			for b.Loop() {
				out, err := machine.Run(p, env)
				if err != nil || out != true {
					b.Fatalf("rule = %v, %v", out, err)
				}
			}
		})
	}
}

// BenchmarkRuleFreshVM is the same rule through expr.Run (a VM per run).
func BenchmarkRuleFreshVM(b *testing.B) {
	p, err := expr.Compile(benchRule, expr.Env(schema.CallEnv{}), expr.AsBool())
	if err != nil {
		b.Fatal(err)
	}
	env := benchEnv()
	b.ReportAllocs()
	for b.Loop() {
		if out, err := expr.Run(p, env); err != nil || out != true {
			b.Fatalf("rule = %v, %v", out, err)
		}
	}
}

// BenchmarkPreChainMoveBase is the household chain on one move_base call:
// a fresh clearance reading (from an in-memory tool), a block rule and a clamp.
func BenchmarkPreChainMoveBase(b *testing.B) {
	s := householdSpec()
	rules, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	s.Rules = rules
	tools := &benchTools{reading: clearanceEnv(0.7, 1, 1, 1)}
	p, err := NewWithActions(engine.PolicyEnv{Spec: s, Tools: tools}, NewActions())
	if err != nil {
		b.Fatal(err)
	}
	cc := &engine.CallContext{
		Call: &engine.Call{ID: "c1", Tool: "move_base", Args: map[string]any{"direction": "front", "distance_m": 2.0}},
		Tool: &engine.RegisteredTool{Contract: s.Tools["move_base"]},
		Emit: func(runlog.Event) {},
	}
	b.ReportAllocs()
	for b.Loop() {
		if res := p.Pre(b.Context(), cc); !res.Allowed {
			b.Fatalf("blocked: %s", res.Reason)
		}
	}
}
