package schema_test

import (
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

// BenchmarkValidate loads and validates the household spec (schema compile,
// unify, decode, rule compile and cross-checks).
func BenchmarkValidate(b *testing.B) {
	opts := schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(b)}
	for b.Loop() {
		if s, diags := schema.Load([]string{"../examples/household/spec.cue"}, opts); s == nil {
			b.Fatal(diags)
		}
	}
}
