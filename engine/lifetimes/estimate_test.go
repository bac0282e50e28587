package lifetimes

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The omission marker never stands for fewer characters than it has, and it
// counts what it omits truly.
func TestBoundMiddleMarkerIsShorterThanWhatItOmits(t *testing.T) {
	for _, n := range []int{61, 65, 70, 90, 200, 1000} {
		s := strings.Repeat("a", n/2) + strings.Repeat("b", n-n/2)
		got := BoundMiddle(s, 60)
		if len(got) > 60 {
			t.Fatalf("n=%d: %d bytes > 60", n, len(got))
		}
		i := strings.Index(got, " …[")
		if i < 0 {
			if !strings.HasSuffix(got, "…") {
				t.Fatalf("n=%d: cut without any marker: %q", n, got)
			}
			continue
		}
		marker := got[i : strings.LastIndex(got, "]… ")+len("]… ")]
		omitted := utf8.RuneCountInString(s) - utf8.RuneCountInString(got) + utf8.RuneCountInString(marker)
		if omitted <= utf8.RuneCountInString(marker) {
			t.Fatalf("n=%d: marker %q stands for only %d characters", n, marker, omitted)
		}
		if !strings.Contains(marker, "[") || !strings.Contains(got, omission(omitted)) {
			t.Fatalf("n=%d: marker %q does not say the %d omitted characters", n, marker, omitted)
		}
	}
}
