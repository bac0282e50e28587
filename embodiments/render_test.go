package embodiments

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func TestRenderListsCamerasFramesAndLimits(t *testing.T) {
	e := schema.Embodiment{
		Name: "bot", Summary: "A test body.",
		Cameras: []schema.Camera{{Name: "head", Frame: "head_camera", Width: 320, Height: 240, FovDeg: 90, Role: "search"}},
		Frames:  []schema.Frame{{Name: "map"}, {Name: "base_link", Parent: "map", Description: "robot base"}},
		Limits:  schema.Limits{MaxTranslationM: 1, MinClearanceM: 0.3},
	}
	got := Render(e)
	want := `Embodiment Profile: bot
A test body.
Cameras:
- head (frame head_camera, 320x240, fov 90°): search
Frames:
- map
- base_link (parent map): robot base
Limits:
- max translation: 1 m
- min clearance: 0.3 m`
	if got != want {
		t.Fatalf("Render:\n%s\nwant:\n%s", got, want)
	}
	if Render(e) != got {
		t.Fatal("Render is not deterministic")
	}
}

func TestRenderEmptyBodySaysNone(t *testing.T) {
	got := Render(schema.Embodiment{Name: "arm"})
	if !strings.Contains(got, "Cameras: none") || !strings.Contains(got, "Frames: none") {
		t.Fatalf("empty profile rendering = %q", got)
	}
}

// Another body's declared sectors and limits reach the model's profile.
func TestRenderDeclaredSectorsAndLimits(t *testing.T) {
	got := Render(schema.Embodiment{
		Name:             "arm",
		ClearanceSectors: []schema.Sector{{Name: "curtain", Direction: "toward the operator", Aliases: []string{"front"}}},
		Limits:           schema.Limits{MinClearanceM: 0.3, Extra: map[string]float64{"max_force_n": 20}},
	})
	for _, want := range []string{"\n- max_force_n: 20", "\nClearance sectors:\n- curtain (also front): toward the operator"} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %q:\n%s", want, got)
		}
	}
}
