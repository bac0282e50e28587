package schema_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/schema"
)

// TestLoadRefusesNonRegular: a spec that is a FIFO, /dev/zero or /dev/urandom
// is a diagnostic at once (without the check: a hang, or gigabytes read).
func TestLoadRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "spec.yaml", func(path string) error {
		_, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
		if len(diags) == 0 {
			return nil
		}
		return errors.New(diags[0].String())
	})
}

func TestLoadRefusesHugeSpec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte("name: x\n"+strings.Repeat("#\n", 2<<20+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
	if len(diags) == 0 || !strings.Contains(diags[0].String(), "larger than 4 MiB") {
		t.Fatalf("got %v", diags)
	}
}

// TestLoadBoundsListsAndMappings: a spec that is one long list or mapping is
// refused before CUE unifies it (quadratic there: 100,000 tools took 108 s).
func TestLoadBoundsListsAndMappings(t *testing.T) {
	list := "name: x\ntests:\n" + strings.Repeat("  - 1\n", schema.MaxListItems+1)
	var m strings.Builder
	m.WriteString("name: x\ntools:\n")
	for i := range schema.MaxStructFields + 1 {
		fmt.Fprintf(&m, "  t%d: {}\n", i)
	}
	var many strings.Builder
	many.WriteString("name: x\ntests:\n")
	row := "  - [" + strings.Repeat("1, ", schema.MaxListItems-1) + "1]\n"
	for range schema.MaxSpecItems/schema.MaxListItems + 1 {
		many.WriteString(row)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"list", list, "spec.yaml:3:3: a list of 2001 items: at most 2000 items per list"},
		{"mapping", m.String(), "spec.yaml:3:3: a mapping of 2001 fields: at most 2000 fields per mapping"},
		{"total", many.String(), "list items and fields in one spec file"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "spec.yaml")
		if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
			t.Fatal(err)
		}
		_, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
		if len(diags) != 1 || !strings.Contains(diags[0].String(), tc.want) {
			t.Errorf("%s: got %v, want one diagnostic containing %q", tc.name, diags, tc.want)
		}
	}
}

// TestLoadRefusesNestedEvaluator: inside an evaluator (EvaluatorEnv set), a
// Load that would start another one is refused at once: a binary that does
// not route the evaluator's command would otherwise start itself again and
// again.
func TestLoadRefusesNestedEvaluator(t *testing.T) {
	t.Setenv(schema.EvaluatorEnv, "1")
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte("name: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t), Evaluator: []string{"some-binary", "evaluate-spec"}})
	want := path + ": internal: the spec evaluator was asked to start another evaluator"
	if len(diags) != 1 || !strings.HasPrefix(diags[0].String(), want) {
		t.Fatalf("got %v, want one diagnostic starting %q", diags, want)
	}
}
