package schema_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
)

// FuzzLoadYAML feeds arbitrary YAML to Load: it must never panic, and a
// rejected spec must come with diagnostics that name the file.
func FuzzLoadYAML(f *testing.F) {
	for _, seed := range []string{"../examples/household/spec.yaml", "testdata/invalid/several_problems.yaml", "testdata/invalid/malformed.yaml"} {
		b, err := os.ReadFile(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
		if s == nil && len(diags) == 0 {
			t.Fatal("rejected without a diagnostic")
		}
		for _, d := range diags {
			if d.Pos.File != path || d.Message == "" {
				t.Fatalf("diagnostic without the file or a message: %+v", d)
			}
		}
	})
}
