package schema

import (
	"os"
	"testing"

	"cuelang.org/go/cue/format"
)

// TestSchemaFormatted keeps the embedded CUE schema and the CUE example in
// `cue fmt` form.
func TestSchemaFormatted(t *testing.T) {
	for _, f := range []string{"cue/spec.cue", "../examples/household/spec.cue"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := format.Source(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if string(got) != string(src) {
			t.Errorf("%s is not in cue fmt form", f)
		}
	}
}
