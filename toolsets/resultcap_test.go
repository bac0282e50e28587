package toolsets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
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
		sec.Env[testserver.BigResultsEnv] = "1"
		sec.MaxResultBytes = limit
		f.spec.Toolsets["sim"] = sec
		ts := f.start(t)
		env := toolByName(t, ts, "huge").Call(t.Context(), json.RawMessage(`{"bytes": 3000000}`))
		want := limit
		if want == 0 {
			want = DefaultMaxResultBytes
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

// TestResultImagesBounded: at most MaxResultImages images are kept and an
// image whose header claims a huge canvas is dropped, each noted.
func TestResultImagesBounded(t *testing.T) {
	f := newFixture(t)
	f.spec.Toolsets["sim"].Env[testserver.BigResultsEnv] = "1"
	ts := f.start(t)
	env := toolByName(t, ts, "images").Call(t.Context(), json.RawMessage(`{}`))
	if !env.Success || len(env.Images) != MaxResultImages {
		t.Fatalf("success %v, %d images; want %d", env.Success, len(env.Images), MaxResultImages)
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

func TestCapResult(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes, multi-byte runes
	tests := []struct {
		name   string
		env    engine.Envelope
		check  func(engine.Envelope) string
		noNote bool
	}{
		{name: "small result untouched", noNote: true,
			env: engine.Envelope{Success: true, Value: map[string]any{"a": "b"}},
			check: func(e engine.Envelope) string {
				if len(e.Value) != 1 {
					return "value changed"
				}
				return ""
			}},
		{name: "long reason cut on a rune boundary",
			env: engine.Envelope{Reason: long},
			check: func(e engine.Envelope) string {
				if len(e.Reason) > 4200 || !strings.Contains(e.Reason, "bytes cut]") || !json.Valid([]byte(`"`+e.Reason+`"`)) {
					return "reason: " + e.Reason[:40]
				}
				return ""
			}},
		{name: "long strings in a nested value cut, keys kept",
			env: engine.Envelope{Success: true, Value: map[string]any{"summary": "s", "list": []any{long, map[string]any{"deep": long}}}},
			check: func(e engine.Envelope) string {
				if e.Value["summary"] != "s" || jsonSize(e.Value) > 4096+300 {
					return "value not cut right"
				}
				return ""
			}},
		{name: "a value of many small items becomes text",
			env: engine.Envelope{Success: true, Value: map[string]any{"n": manyNumbers(5000)}},
			check: func(e engine.Envelope) string {
				if s, _ := e.Value["text"].(string); !strings.HasPrefix(s, `{"n":[0,1,2`) {
					return "no text prefix"
				}
				return ""
			}},
		{name: "images past the byte budget dropped",
			env: engine.Envelope{Success: true, Images: []schema.Image{{Data: make([]byte, 3000)}, {Data: make([]byte, 3000)}}},
			check: func(e engine.Envelope) string {
				if len(e.Images) != 1 {
					return "want one image kept"
				}
				return ""
			}},
	}
	for _, tc := range tests {
		env := tc.env
		capResult(&env, "t", 4096)
		if msg := tc.check(env); msg != "" {
			t.Errorf("%s: %s", tc.name, msg)
		}
		if _, noted := env.Value["truncated"]; noted == tc.noNote {
			t.Errorf("%s: truncated note present %v", tc.name, noted)
		}
	}
}

func manyNumbers(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}
