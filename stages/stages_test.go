package stages_test

import (
	"slices"
	"testing"

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
