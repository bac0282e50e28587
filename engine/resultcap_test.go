package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

func TestCapResult(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes, multi-byte runes
	tests := []struct {
		name   string
		env    runlog.Envelope
		check  func(runlog.Envelope) string
		noNote bool
	}{
		{name: "small result untouched", noNote: true,
			env: runlog.Envelope{Success: true, Value: map[string]any{"a": "b"}},
			check: func(e runlog.Envelope) string {
				if len(e.Value) != 1 {
					return "value changed"
				}
				return ""
			}},
		{name: "long reason cut on a rune boundary",
			env: runlog.Envelope{Reason: long},
			check: func(e runlog.Envelope) string {
				if len(e.Reason) > 4200 || !strings.Contains(e.Reason, "bytes cut]") || !json.Valid([]byte(`"`+e.Reason+`"`)) {
					return "reason: " + e.Reason[:40]
				}
				return ""
			}},
		{name: "long strings in a nested value cut, keys kept",
			env: runlog.Envelope{Success: true, Value: map[string]any{"summary": "s", "list": []any{long, map[string]any{"deep": long}}}},
			check: func(e runlog.Envelope) string {
				if e.Value["summary"] != "s" || jsonSize(e.Value) > 4096+300 {
					return "value not cut right"
				}
				return ""
			}},
		{name: "a value of many small items becomes text",
			env: runlog.Envelope{Success: true, Value: map[string]any{"n": manyNumbers(5000)}},
			check: func(e runlog.Envelope) string {
				if s, _ := e.Value["text"].(string); !strings.HasPrefix(s, `{"n":[0,1,2`) {
					return "no text prefix"
				}
				return ""
			}},
		{name: "images past the byte budget dropped",
			env: runlog.Envelope{Success: true, Images: []world.Image{{Data: make([]byte, 3000)}, {Data: make([]byte, 3000)}}},
			check: func(e runlog.Envelope) string {
				if len(e.Images) != 1 {
					return "want one image kept"
				}
				return ""
			}},
	}
	for _, tc := range tests {
		env := tc.env
		CapResult(&env, "t", 4096)
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
