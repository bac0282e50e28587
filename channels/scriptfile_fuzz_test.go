package channels

import "testing"

// ParseScript reads a file a person wrote: whatever it holds, it returns
// answers or positioned problems, never both, and never panics.
func FuzzParseScript(f *testing.F) {
	for _, s := range []string{"answers:\n  - answer: x\n", "answers: [{match: a, answer: b}]", "answers:\n  - &a {answer: x}\n  - *a\n", "- 1", "answers: *x", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		answers, probs := ParseScript(src)
		if len(probs) > 0 && answers != nil {
			t.Fatalf("answers %v beside problems %v", answers, probs)
		}
		for _, p := range probs {
			if p.Message == "" {
				t.Fatalf("a problem without a message: %+v", p)
			}
		}
	})
}
