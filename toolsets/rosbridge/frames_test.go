package rosbridge_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// TestHugeFrameDropped: a camera frame whose header claims 60000×60000
// pixels is dropped, and the observation says so in its truncated field
// (and an event does) instead of losing the camera without a word.
func TestHugeFrameDropped(t *testing.T) {
	p := fake(t, "-huge-image-header")
	r := start(t, p.URL, opts{})
	env := r.call(t, "observe", `{}`)
	wantSuccess(t, env)
	if len(env.Images) != 0 {
		t.Fatalf("the huge frame was kept: %d images", len(env.Images))
	}
	note, _ := env.Value["truncated"].(string)
	for _, want := range []string{"camera front", "/camera/image_raw/compressed", "60000x60000"} {
		if !strings.Contains(note, want) {
			t.Fatalf("truncated %q does not say %q", note, want)
		}
	}
	if imgs, _ := env.Value["images"].([]map[string]any); len(imgs) != 0 {
		t.Fatalf("the dropped frame is still listed: %v", imgs)
	}
	ev, ok := r.evs.find(rosbridge.SafetyFrameDropped)
	if !ok || ev.Text != note || ev.Tool != "observe" {
		t.Fatalf("no event says the dropped frame: %+v", ev)
	}
}
