package schema_test

import (
	"testing"

	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

// BenchmarkValidate loads and validates the household spec (schema compile,
// unify, decode, rule compile and cross-checks).
func BenchmarkValidate(b *testing.B) {
	opts := schema.LoadOptions{Profiles: embodiments.Profiles()}
	for b.Loop() {
		if s, diags := schema.Load([]string{"../examples/household/spec.cue"}, opts); s == nil {
			b.Fatal(diags)
		}
	}
}

// TestPos checks that spec paths map to where the user wrote them, in CUE and YAML.
func TestPos(t *testing.T) {
	for _, tc := range []struct {
		file, path string
		line, col  int
	}{
		{"../examples/household/spec.cue", "tests[1]", 163, 4},
		{"../examples/household/spec.cue", "hooks.pre[0].rule", 87, 3},
		{"../examples/household/spec.yaml", "model.provider", 6, 3},
	} {
		s, diags := schema.Load([]string{tc.file}, schema.LoadOptions{Profiles: embodiments.Profiles()})
		if s == nil {
			t.Fatal(diags)
		}
		if p := s.Pos(tc.path); p.File != tc.file || p.Line != tc.line || p.Col != tc.col {
			t.Errorf("Pos(%s) in %s = %v, want line %d col %d", tc.path, tc.file, p, tc.line, tc.col)
		}
	}
}
