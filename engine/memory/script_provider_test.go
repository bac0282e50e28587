package memory_test

import (
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/memory"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
)

// The documented answer format, through the script provider as a spec's
// scripted model would give it.
func TestConsolidateWithScriptProvider(t *testing.T) {
	m, err := script.FromEntries("test.yaml", script.Entry{Purpose: model.PurposeConsolidate,
		Text: `{"candidates":[{"scope":"tool","tool":"open_drawer","entry":"Pull the lower drawer until a gap is visible.","confidence":0.85}]}`})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := memory.Input{
		Notes: memory.Notes{Goal: "put the mug in the drawer", Phase: "done", Timeline: []string{"turn 1: open_drawer: success"}},
		Tools: []string{"open_drawer"}, Task: "t1", Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}
	res, err := memory.Consolidate(t.Context(), m, memory.Config{Dir: dir, Threshold: 0.7}, in)
	if err != nil || len(res.Written) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	got, err := memory.Summary(t.Context(), dir, "open_drawer", 200)
	if err != nil || got != "- Pull the lower drawer until a gap is visible." {
		t.Fatalf("Summary %q %v", got, err)
	}
}
