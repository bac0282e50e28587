package termesc_test

import (
	"testing"

	"github.com/thea-harness/thea/internal/termesc"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcode ✓ → ok", "plain text, ünïcode ✓ → ok"},
		{"a\rb", `a\rb`},
		{"line\nnext\ttab", `line\nnext\ttab`},
		{"\x1b[2Kerased", `\x1b[2Kerased`},
		{"\x1b]0;pwned title\x07rest", `\x1b]0;pwned title\x07rest`},
		{"\x1b]2;title\x1b\\", `\x1b]2;title\x1b\`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"nel\u0085", `nel\u0085`},
		{"raw 8-bit csi \x9b2J", `raw 8-bit csi \x9b2J`},
		{"bidi \u202etxt.exe", `bidi \u202etxt.exe`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"sep\u2028x", `sep\u2028x`},
		{"nul\x00", `nul\x00`},
	} {
		if got := termesc.Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
