package schema

import (
	"testing"

	"github.com/expr-lang/expr/vm"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/world"
)

// FuzzCompileRule compiles arbitrary expressions as each kind of rule a spec
// holds (when, rewrite value, clamp bound, tool check) and runs what
// compiles under the rule limits: never a panic, an error always has a path
// and a message, and every evaluation returns (a value or an error). Seeds:
// testdata/fuzz/FuzzCompileRule.
func FuzzCompileRule(f *testing.F) {
	f.Add("'base_motion' in tool.tags && clearance.front < 0.5")
	env := &CallEnv{Tool: ToolInfo{Name: "t", Tags: []string{"base_motion"}},
		Args: map[string]any{"x": 1.0, "s": "a"}, Clearance: NewClearanceEnv(world.Clearance{"front": 1}, DefaultSectors(), Limits{})}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		specs := []*Spec{
			{Hooks: Hooks{Pre: []PreHook{{Name: "h", When: src}}}},
			{Hooks: Hooks{Pre: []PreHook{{Name: "h", Action: "rewrite", Config: testRewrite{"x": src}}}}},
			{Hooks: Hooks{Pre: []PreHook{{Name: "h", Action: "clamp", Config: testClamp{Arg: "x", Max: src}}}}},
			{Tools: map[string]ToolContract{"t": {Check: src}}},
		}
		machine := rules.NewVM()
		for _, spec := range specs {
			compiled, errs := CompileRules(spec)
			if compiled == nil {
				if len(errs) == 0 {
					t.Fatal("no rules and no errors")
				}
				for _, e := range errs {
					if e.Path == "" || e.Message == "" {
						t.Fatalf("error without a path or message: %+v", e)
					}
				}
				continue
			}
			var progs []*vm.Program
			for _, pr := range compiled.Pre {
				progs = append(progs, pr.When, pr.Exprs["rewrite.x"], pr.Exprs["clamp.max"])
			}
			for _, p := range progs {
				if p != nil {
					_, _ = rules.Run(machine, p, env)
				}
			}
			if p := compiled.Checks["t"]; p != nil {
				_, _ = rules.Run(machine, p, &CheckEnv{Args: env.Args})
			}
		}
	})
}
