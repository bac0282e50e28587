package termesc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/termesc"
)

// EscapeJSON leaves no raw DEL, C1 or bidi control in an encoded text, and
// the text decodes to the same value; JSON's own whitespace stays.
func TestEscapeJSON(t *testing.T) {
	in := map[string]any{"d\u202ek": "esc \x1b[2K bel \x07 del \x7f c1 \u009b2J bidi \u202e\u2066 sep \u2028 ok ✓"}
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := termesc.EscapeJSON(b)
	for _, raw := range []string{"\x1b", "\x07", "\x7f", "\u009b", "\u202e", "\u2066", "\u2028"} {
		if strings.Contains(string(out), raw) {
			t.Errorf("%q left raw in %s", raw, out)
		}
	}
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for k, v := range in {
		if back[k] != v {
			t.Errorf("decodes to %q, want %q", back[k], v)
		}
	}
	if !strings.Contains(string(out), "\n  \"") || !strings.Contains(string(out), "✓") {
		t.Errorf("indentation or a printable rune changed: %s", out)
	}
	if plain := []byte(`{"a": "b"}`); &termesc.EscapeJSON(plain)[0] != &plain[0] {
		t.Error("a text with nothing to escape was copied")
	}
}
