package rosbridge

import (
	"strings"
	"testing"
)

func TestRenderValue(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{"score": 0.93, "class": "mug"}, "class: mug, score: 0.93"},
		{map[any]any{"b": 1.0, "a": []any{1.5, "x"}}, "a: [1.5, x], b: 1"},
		{[]any{map[string]any{"class": "mug", "pose": map[string]any{"x": 0.1, "frame": "base_link"}}}, "[{class: mug, pose: {frame: base_link, x: 0.1}}]"},
		{map[string]any{"note": "a, b", "empty": ""}, `empty: "", note: "a, b"`},
		{"plain, text", "plain, text"},
		{1e-9, "1e-09"},
		{12.0, "12"},
		{nil, "null"},
		{[]float64{1, 2}, "[1, 2]"},
		{map[string]int{"b": 2, "a": 1}, "a: 1, b: 2"},
	} {
		if got := renderValue(c.v); got != c.want {
			t.Errorf("renderValue(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
	long := renderValue(map[string]any{"data": strings.Repeat("é", 1000)})
	if len(long) > maxRendered+len("…") || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "data: éé") {
		t.Errorf("a long value is cut at %d bytes on a rune: %q…", maxRendered, long[:20])
	}
}
