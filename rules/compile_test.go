package rules

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/expr-lang/expr"
)

// sent is an observation of the test's own, which knows which of its fields
// a back-end sent: known are the fields sent, nested the fields of a nested
// object that were.
type sent struct {
	Curtain bool `expr:"curtain"`
	Arm     arm  `expr:"arm"`
	known   []string
	nested  map[string][]string
}

type arm struct {
	Grip  float64 `expr:"grip"`
	Wrist float64 `expr:"wrist"`
}

func (s sent) ObservedField(k any) (any, bool, error) {
	name, _ := k.(string)
	var v any
	switch name {
	case "curtain":
		v = s.Curtain
	case "arm":
		v = s.Arm
	default:
		return nil, false, fmt.Errorf("no field %v", k)
	}
	return v, slices.Contains(s.known, name), nil
}

func (s sent) ObservedIn(object, field string) bool { return slices.Contains(s.nested[object], field) }

type limits struct {
	MinClearanceM float64            `expr:"min_clearance_m"`
	Extra         map[string]float64 `expr:"extra"`
}

type env struct {
	Obs    map[string]any `expr:"obs"`
	Seen   sent           `expr:"seen"`
	Limits limits         `expr:"limits"`
}

func testNames() Names {
	return Names{Extra: []string{"reach"}, Limits: []string{"min_clearance_m", "reach"},
		Types: Types{Limits: reflect.TypeFor[limits]()}}
}

// TestCompileOwnEnv: the language works on an environment it was not written
// for (no spec, no schema types): a read of a value its observation did not
// send fails closed with the value's name, `??` gives the rule's own default,
// a declared extra limit reads its value, and a mistake is at its line and
// column inside the expression.
func TestCompileOwnEnv(t *testing.T) {
	e := env{
		Obs:    map[string]any{"door": "open"},
		Seen:   sent{Arm: arm{Grip: 0.4, Wrist: 1.0}, known: []string{"arm"}, nested: map[string][]string{"arm": {"wrist"}}},
		Limits: limits{Extra: map[string]float64{"reach": 0.8}},
	}
	tests := []struct {
		src     string
		want    any
		missing string // the value a MissingError names
	}{
		{src: `obs.door == 'open'`, want: true},
		{src: `obs.light == true`, missing: "obs.light"},
		// Its zero value would hold: never read it.
		{src: `seen.curtain == false`, missing: "seen.curtain"},
		{src: `seen.curtain ?? true`, want: true},
		{src: `seen.arm.wrist > 0.5`, want: true},
		// The arm was sent, but not its grip: never the grip's value.
		{src: `seen.arm.grip < 0.5`, missing: "seen.arm.grip"},
		{src: `limits.reach > 0.5`, want: true},
	}
	names := testNames()
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			p, _, cerr := names.Compile(tc.src, Env{Value: env{}, Observed: []string{"obs", "seen"}}, expr.AsBool())
			if cerr != nil {
				t.Fatalf("compile: %v", cerr)
			}
			got, err := Run(nil, p, e)
			if tc.missing != "" {
				if m := Missing(err); m == nil || m.Path != tc.missing {
					t.Fatalf("got %v, %v; want %s missing", got, err, tc.missing)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestCompileErrorPosition(t *testing.T) {
	_, _, err := testNames().Compile("obs.door == 'open' &&\n  limits.reech > 0.5", Env{Value: env{}}, expr.AsBool())
	want := Error{Line: 2, Col: 10, Message: `limits has no "reech" (did you mean "reach"?); declare it in embodiment.limits to read it`}
	if err == nil || *err != want {
		t.Fatalf("got %+v, want %+v", err, want)
	}
}
