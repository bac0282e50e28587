package schema

import (
	"testing"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/world"
)

// clearance.toward and clearance.admissible read a sector named by a call's
// argument: an argument the call left out, or one that is not text, reads 0
// (not admissible), the safe side, never a run-time type error in Go words.
func TestTowardTakesAnyArgument(t *testing.T) {
	s := ruleSpec([]PreHook{
		{Name: "toward", Action: "clamp", Config: testClamp{Arg: "distance_m", Min: "0", Max: "clearance.toward(args.direction)"}},
		{Name: "admissible", Action: "block", Rule: "!clearance.admissible(args.direction)"},
	}, nil)
	r, errs := CompileRules(s)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	sectors := []Sector{{Name: "front", Aliases: []string{"ahead"}}}
	env := CallEnv{Clearance: NewClearanceEnv(world.Clearance{"front": 1.5}, sectors, Limits{MinClearanceM: 0.3})}
	for _, tc := range []struct {
		args    map[string]any
		toward  float64
		blocked bool
	}{
		{map[string]any{"direction": "ahead"}, 1.5, false},
		{map[string]any{}, 0, true},
		{map[string]any{"direction": 3}, 0, true},
		{map[string]any{"direction": "up"}, 0, true},
	} {
		env.Args = tc.args
		got, err := rules.Run(nil, r.Pre[0].Exprs["clamp.max"], env)
		if err != nil || got != tc.toward {
			t.Errorf("toward with args %v = %v, %v; want %v", tc.args, got, err, tc.toward)
		}
		blocked, err := rules.Run(nil, r.Pre[1].Rule, env)
		if err != nil || blocked != tc.blocked {
			t.Errorf("!admissible with args %v = %v, %v; want %v", tc.args, blocked, err, tc.blocked)
		}
	}
}
