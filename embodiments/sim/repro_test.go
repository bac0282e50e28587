package sim_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// flakyRun plays a fixed sequence of grasps and places in the flaky world
// (both succeed half the time) and returns every result and image.
func flakyRun(t *testing.T, seed uint64) (results []string, images [][]byte) {
	t.Helper()
	c := simClient(t, "testdata/flaky.yaml", seed)
	mustSucceed(t, c, "navigate_to", map[string]any{"target": "table"})
	for range 12 {
		for _, step := range []struct {
			tool string
			args map[string]any
		}{
			{"pick_up", map[string]any{"object_name": "cup"}},
			{"place", map[string]any{"object_name": "cup", "target": "table", "relation": "on"}},
		} {
			out, _ := call(t, c, step.tool, step.args)
			results = append(results, fmt.Sprint(out))
		}
		obs, pngs := observeImages(t, c, nil)
		results = append(results, fmt.Sprint(obs))
		images = append(images, pngs...)
	}
	return results, images
}

// TestReproducibleFromSeed: the same seed gives identical results and image
// bytes; another seed gives another sequence of outcomes.
func TestReproducibleFromSeed(t *testing.T) {
	r1, i1 := flakyRun(t, 42)
	r2, i2 := flakyRun(t, 42)
	if !slices.Equal(r1, r2) {
		t.Fatalf("seed 42 twice gave different results:\n%v\n%v", r1, r2)
	}
	if !slices.EqualFunc(i1, i2, bytes.Equal) {
		t.Fatal("seed 42 twice gave different image bytes")
	}
	joined := strings.Join(r1, "\n")
	if !strings.Contains(joined, "grasp failed") || !strings.Contains(joined, "held:cup") {
		t.Fatalf("with probability 0.5 over 12 grasps, want both outcomes:\n%s", joined)
	}
	r3, _ := flakyRun(t, 43)
	if slices.Equal(r1, r3) {
		t.Fatal("seeds 42 and 43 gave the same outcomes")
	}
}
