package toolsets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

// TestHugeResultCapped: a real back-end answering 6 MB (past the 1 MiB default) is stored as at most
// max_result_bytes, its structure (summary) kept and the cut noted. Without
// the cap the envelope holds all 6 MB.
func TestHugeResultCapped(t *testing.T) {
	for _, limit := range []int{0, 64 << 10} {
		f := newFixture(t)
		sec := f.spec.Toolsets["sim"]
		sec.Config.(MCPConfig).Env[testserver.BigResultsEnv] = "1"
		sec.MaxResultBytes = limit
		f.spec.Toolsets["sim"] = sec
		ts := f.start(t)
		env := toolByName(t, ts, "huge").Call(callgate.Through(t.Context()), json.RawMessage(`{"bytes": 3000000}`))
		want := limit
		if want == 0 { // the schema's default, as the fixture's section gets it
			d, err := schema.ToolsetDefaults("mcp")
			if err != nil {
				t.Fatal(err)
			}
			want = d.MaxResultBytes
		}
		b, _ := json.Marshal(env)
		if len(b) > want+1024 {
			t.Errorf("limit %d: stored result is %d bytes", limit, len(b))
		}
		if env.Value["summary"] != "big" {
			t.Errorf("limit %d: structure lost: summary %v", limit, env.Value["summary"])
		}
		note, _ := env.Value["truncated"].(string)
		if !strings.Contains(note, "huge returned more than max_result_bytes") || !strings.Contains(note, "value cut from 6000") {
			t.Errorf("limit %d: note %q", limit, note)
		}
	}
}

// TestResultImagesBounded: at most engine.MaxResultImages images are kept and an
// image whose header claims a huge canvas is dropped, each noted.
func TestResultImagesBounded(t *testing.T) {
	f := newFixture(t)
	f.spec.Toolsets["sim"].Config.(MCPConfig).Env[testserver.BigResultsEnv] = "1"
	ts := f.start(t)
	env := toolByName(t, ts, "images").Call(callgate.Through(t.Context()), json.RawMessage(`{}`))
	if !env.Success || len(env.Images) != engine.MaxResultImages {
		t.Fatalf("success %v, %d images; want %d", env.Success, len(env.Images), engine.MaxResultImages)
	}
	for _, img := range env.Images {
		if img.Width != 2 || img.Height != 2 {
			t.Errorf("image %s is %dx%d, want 2x2 from its header", img.Camera, img.Width, img.Height)
		}
	}
	note, _ := env.Value["truncated"].(string)
	for _, want := range []string{"image 1 (100000x100000) dropped", "image 10 dropped: at most 8 images"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
}
