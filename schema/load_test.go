package schema_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata/invalid")

// TestInvalidCorpus loads every invalid spec and compares its diagnostics,
// one file:line:col: message per line, with the spec's .golden file.
func TestInvalidCorpus(t *testing.T) {
	t.Chdir("testdata")
	specs, err := filepath.Glob("invalid/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, spec := range specs {
		if strings.HasSuffix(spec, ".golden") {
			continue
		}
		n++
		t.Run(filepath.Base(spec), func(t *testing.T) {
			s, diags := schema.Load([]string{spec}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
			if s != nil || len(diags) == 0 {
				t.Fatalf("Load(%s) accepted an invalid spec", spec)
			}
			var b strings.Builder
			for _, d := range diags {
				if d.Pos.File != spec || d.Pos.Line < 1 || d.Pos.Col < 1 {
					t.Errorf("diagnostic without the spec's file:line:col: %v", d)
				}
				b.WriteString(d.String() + "\n")
			}
			golden := strings.TrimSuffix(spec, filepath.Ext(spec)) + filepath.Ext(spec) + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden (run with -update): %v", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("diagnostics of %s:\n--- got\n%s--- want\n%s", spec, got, want)
			}
		})
	}
	if n < 25 {
		t.Errorf("corpus has %d invalid specs, want at least 25", n)
	}
}
