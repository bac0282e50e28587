package schema

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/rules"
)

// TestCompileRulesReadings: readings.<name> is typed by its declaration, a
// name not declared (also under age_s) is a load error at its column, and a
// reading may not take a name of the env's own fields.
func TestCompileRulesReadings(t *testing.T) {
	decl := &SafetyReadings{Tool: "readings", Values: map[string]string{"light_curtain": "bool", "person_distance": "number", "mode": "string", "raw": "any"}}
	tests := []struct {
		name, rule string
		values     map[string]string // replaces decl.Values when set
		path       string
		contains   string // "" when the rule compiles
	}{
		{name: "bool reading", rule: "!readings.light_curtain"},
		{name: "number reading with its age", rule: "readings.person_distance < 1.0 || readings.age_s.person_distance > 0.3"},
		{name: "text and any", rule: "readings.mode == 'auto' && readings.raw != nil"},
		{name: "a bool compared as a number", rule: "readings.light_curtain > 0.5", path: "hooks.pre[0].rule", contains: "mismatched types bool and float64"},
		{name: "undeclared reading", rule: "readings.light_curtian", path: "hooks.pre[0].rule", contains: `readings has no "light_curtian" (did you mean "light_curtain"?)`},
		{name: "undeclared age", rule: "readings.age_s.person < 0.2", path: "hooks.pre[0].rule", contains: `readings has no "person"`},
		{name: "no readings declared", rule: "readings.light_curtain", values: map[string]string{}, path: "hooks.pre[0].rule", contains: "declares no safety readings"},
		{name: "a reserved name", rule: "true", values: map[string]string{"age_s": "number"}, path: "safety.readings.values.age_s", contains: "own fields"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ruleSpec([]PreHook{{Name: "r", Action: "block", Rule: tc.rule}}, nil)
			d := *decl
			if tc.values != nil {
				d.Values = tc.values
			}
			s.Safety.Readings = &d
			rules, errs := CompileRules(s)
			if tc.contains == "" {
				if len(errs) > 0 {
					t.Fatalf("errors: %v", errs)
				}
				if !rules.Pre[0].ReadsReadings {
					t.Fatal("the hook reads readings but is not marked so")
				}
				return
			}
			if len(errs) == 0 {
				t.Fatal("compiled")
			}
			if errs[0].Path != tc.path || !strings.Contains(errs[0].Message, tc.contains) {
				t.Fatalf("got %v, want %s: …%s…", errs, tc.path, tc.contains)
			}
		})
	}
}

// TestNewReadingsEnv: every declared reading must be there with its type
// and age; extra readings are ignored.
func TestNewReadingsEnv(t *testing.T) {
	decl := map[string]string{"curtain": "bool", "distance": "number"}
	env, err := rules.NewReadingsEnv(map[string]any{
		"readings": map[string]any{"curtain": true, "distance": 1.5, "other": "x"},
		"age_s":    map[string]any{"curtain": 0.01, "distance": 0.2},
	}, decl)
	if err != nil || !env.Bools["curtain"] || env.Numbers["distance"] != 1.5 || env.AgeS["distance"] != 0.2 {
		t.Fatalf("%+v, %v", env, err)
	}
	for _, bad := range []map[string]any{
		{"readings": map[string]any{"curtain": true}, "age_s": map[string]any{"curtain": 0.01}},
		{"readings": map[string]any{"curtain": true, "distance": "far"}, "age_s": map[string]any{"curtain": 0.01, "distance": 0.1}},
		{"readings": map[string]any{"curtain": true, "distance": 1.0}, "age_s": map[string]any{"curtain": 0.01}},
		{"curtain": true},
	} {
		if _, err := rules.NewReadingsEnv(bad, decl); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
