package stages_test

import (
	"slices"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/stages"
)

func TestRegisterAddsTheSevenStages(t *testing.T) {
	r := engine.NewRegistry[engine.StageFactory]("stage")
	if err := stages.Register(r); err != nil {
		t.Fatal(err)
	}
	want := []string{"compact", "decide", "execute", "observe", "record", "scene_brief", "task_notes"}
	if got := r.Names(); !slices.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	for _, n := range want {
		f, err := r.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f(nil)
		if err != nil || st.Name() != n {
			t.Fatalf("stage %q builds %v, %v", n, st, err)
		}
	}
	if err := stages.Register(r); err == nil {
		t.Fatal("registering twice must fail")
	}
}
