package sim_test

import (
	"slices"
	"strings"
	"testing"
)

// A drawer is part of its furniture: an observation that sees the cabinet
// reports each of its drawers in it (class drawer, relation in, target
// cabinet), so a reader can tie the drawers' states to the furniture; one
// that sees no furniture with drawers reports none, and the summary still
// names objects only.
func TestObservationTiesDrawersToFurniture(t *testing.T) {
	c := simClient(t, "", 7)
	drawers := func(obs map[string]any) []string {
		var out []string
		for _, d := range obs["detections"].([]any) {
			d := d.(map[string]any)
			if d["class"] != "drawer" {
				continue
			}
			if d["relation"] != "in" || d["target"] != "cabinet" || d["room"] != "kitchen" {
				t.Errorf("drawer detection %v: want in cabinet, room kitchen", d)
			}
			if !slices.Contains(out, d["name"].(string)) {
				out = append(out, d["name"].(string))
			}
		}
		slices.Sort(out)
		return out
	}
	if got := drawers(mustSucceed(t, c, "observe", nil)); len(got) != 0 {
		t.Fatalf("from the living room the cabinet is out of sight, yet drawers %v are reported", got)
	}
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "cabinet"})
	obs := mustSucceed(t, c, "observe", nil)
	if got := drawers(obs); !slices.Equal(got, []string{"bottom_drawer", "top_drawer"}) {
		t.Fatalf("at the cabinet: drawers %v, want bottom_drawer and top_drawer in it: %v", got, obs["detections"])
	}
	if s, _ := obs["summary"].(string); s == "" || strings.Contains(s, "in cabinet") {
		t.Errorf("the summary names objects, not the furniture's drawers: %q", s)
	}
}
