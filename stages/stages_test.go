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

func TestComponentsAreTheSevenStages(t *testing.T) {
	c := engine.NewComponents()
	if err := c.Add(stages.Components()...); err != nil {
		t.Fatal(err)
	}
	want := []string{"compact", "decide", "execute", "observe", "record", "scene_brief", "task_notes"}
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
}

// The default loop order satisfies every stage's declared predecessors.
func TestDefaultOrderSatisfiesAfter(t *testing.T) {
	order := []string{"task_notes", "observe", "scene_brief", "compact", "decide", "execute", "record"}
	for _, comp := range stages.Components() {
		d := comp.Describe()
		i := slices.Index(order, d.Name)
		for _, a := range d.After {
			if j := slices.Index(order, a); j < 0 || j > i {
				t.Errorf("stage %s must follow %s, which the default order puts at %d", d.Name, a, j)
			}
		}
	}
}

// The fixed turn's positions stay names of loop.stages: the example spec
// validates as it is, and a context stage listed after decide is a
// diagnostic at its position in the spec file.
func TestLoopStagesValidate(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../examples/household")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.yaml")
	opts := schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)}
	if _, diags := schema.Load([]string{path}, opts); len(diags) > 0 {
		t.Fatalf("the example does not validate: %v", diags)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	order := "    - decide\n    - execute\n    - record\n"
	text := strings.Replace(string(b), "    - compact\n"+order, order+"    - compact\n", 1)
	if text == string(b) {
		t.Fatal("the example's loop.stages is not the default order")
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := schema.Load([]string{path}, opts)
	for _, d := range diags {
		if d.Path == "loop.stages[3]" && strings.Contains(d.Message, `stage "decide" must run after "compact"`) && d.Pos.Line > 0 {
			return
		}
	}
	t.Fatalf("no positioned diagnostic for decide before compact: %v", diags)
}
