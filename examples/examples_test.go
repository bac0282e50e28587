package examples_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

func load(t *testing.T, path string) *schema.Spec {
	t.Helper()
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	for _, d := range diags {
		t.Errorf("%s", d)
	}
	if s == nil {
		t.Fatalf("%s did not load", path)
	}
	return s
}

// TestEverySpecLoads loads every spec under examples/ without diagnostics.
func TestEverySpecLoads(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := filepath.Base(path)
		if d.IsDir() || !strings.HasPrefix(base, "spec.") {
			return nil
		}
		n++
		t.Run(path, func(t *testing.T) { load(t, path) })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no spec found under examples/")
	}
}

// TestHouseholdTwins checks that spec.cue and spec.yaml decode to the same
// plan. JSON drops the fields that differ by construction (Dir, Files, Rules).
func TestHouseholdTwins(t *testing.T) {
	c := load(t, "household/spec.cue")
	y := load(t, "household/spec.yaml")
	cj, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	yj, err := json.MarshalIndent(y, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if string(cj) != string(yj) {
		t.Errorf("spec.cue and spec.yaml decode differently:\ncue:\n%s\nyaml:\n%s", cj, yj)
	}
	if len(c.Rules.Pre) != len(c.Hooks.Pre) || c.Rules.Checks["pick_up"] == nil {
		t.Errorf("rules not compiled: %+v", c.Rules)
	}
}
