package stages_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/stages"
)

func TestComponentsAreTheContextStages(t *testing.T) {
	c := engine.NewComponents()
	if err := c.Add(stages.Components()...); err != nil {
		t.Fatal(err)
	}
	want := []string{"compact", "observe", "scene_brief", "task_notes"}
	if got := c.Descriptors().Names(schema.KindStage); !slices.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	for _, n := range want {
		k, err := engine.Get[engine.StageKind](c, schema.KindStage, n)
		if err != nil {
			t.Fatal(err)
		}
		st, err := k.New(nil)
		if err != nil || st.Name() != n {
			t.Fatalf("stage %q builds %v, %v", n, st, err)
		}
	}
	if err := c.Add(stages.Components()...); err == nil {
		t.Fatal("registering twice must fail")
	}
	// The fixed turn is the engine's: no component may take its names.
	decide := engine.StageKind{Name: "decide", New: func(*schema.Spec) (engine.Stage, error) { return stages.Observe{}, nil }}
	if err := engine.NewComponents().Add(decide); err == nil {
		t.Fatal("a stage named decide registered")
	}
}

// The default loop order satisfies every stage's declared predecessors,
// hard (After) and advised (Before).
func TestDefaultOrderSatisfiesAfter(t *testing.T) {
	order := []string{"task_notes", "observe", "scene_brief", "compact"}
	for _, comp := range stages.Components() {
		d := comp.Describe()
		i := slices.Index(order, d.Name)
		for _, a := range d.After {
			if j := slices.Index(order, a); j < 0 || j > i {
				t.Errorf("stage %s must follow %s, which the default order puts at %d", d.Name, a, j)
			}
		}
		for _, b := range d.Before {
			if j := slices.Index(order, b); j < 0 || j < i {
				t.Errorf("stage %s should precede %s, which the default order puts at %d", d.Name, b, j)
			}
		}
	}
}

// A context stage listed after one it needs is a diagnostic at its
// position in the spec file; the example itself validates without a
// warning about its stages.
func TestLoopStagesValidate(t *testing.T) {
	path := householdCopy(t)
	opts := schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)}
	s, diags := schema.Load([]string{path}, opts)
	if s == nil {
		t.Fatalf("the example does not validate: %v", diags)
	}
	for _, d := range s.Warnings {
		if strings.HasPrefix(d.Path, "loop.stages") {
			t.Errorf("the example's stages warn: %v", d)
		}
	}
	replaceIn(t, path, "    - scene_brief\n    - compact\n", "    - compact\n    - scene_brief\n")
	_, diags = schema.Load([]string{path}, opts)
	for _, d := range diags {
		if d.Path == "loop.stages[2]" && strings.Contains(d.Message, `stage "compact" must run after "scene_brief"`) && d.Pos.Line > 0 {
			return
		}
	}
	t.Fatalf("no positioned diagnostic for compact before scene_brief: %v", diags)
}

// householdCopy copies the household example to a temporary directory and
// returns its spec's path.
func householdCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../examples/household")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "spec.yaml")
}

// replaceIn replaces old with new once in the file at path.
func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), old, new, 1)
	if text == string(b) {
		t.Fatalf("%q is not in %s", old, path)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
