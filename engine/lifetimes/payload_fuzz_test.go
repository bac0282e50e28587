package lifetimes

import (
	"testing"
	"unicode/utf8"
)

// FuzzStripPayloads: any tool-result text gives valid UTF-8 without raw
// control bytes, stripping again changes nothing, and text the quick check
// passes holds nothing the patterns would replace. Seeds:
// testdata/fuzz/FuzzStripPayloads.
func FuzzStripPayloads(f *testing.F) {
	f.Add("plain text with a data:image/png;base64,iVBORw0KGgo= inside")
	f.Fuzz(func(t *testing.T, s string) {
		out := stripPayloads(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if isBinary(r) {
				t.Fatalf("raw control %U left in %q", r, out)
			}
		}
		if again := stripPayloads(out); again != out {
			t.Fatalf("not stable:\n%q\n%q", out, again)
		}
		// The quick check never lets a payload through.
		if !mayHoldPayload(s) && replacePayloads(s) != s {
			t.Fatalf("the quick check passed %q, which holds a payload", s)
		}
	})
}
