package schema_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func TestCompileRedactPattern(t *testing.T) {
	probes := []string{"", "a", "ab c", "x", "xx", "secret", "\n", "tok-12 ok"}
	for _, tc := range []struct {
		pattern string
		refused string // a substring of the error; empty: accepted
	}{
		{`sk-[A-Za-z0-9]{20,}`, ""},
		{`tok-\d+`, ""},
		{`x+`, ""},
		{`^sk-\w+$`, ""},
		{`(?i)password=\S+`, ""},
		{`a|b`, ""},
		{`x{1,3}`, ""},
		{`x*`, "empty string"},
		{`x?`, "empty string"},
		{`x{0,3}`, "empty string"},
		{`a|`, "empty string"},
		{`(?:)`, "empty string"},
		{`^`, "empty string"},
		{`$`, "empty string"},
		{`\b`, "empty string"},
		{`(?m)^|secret`, "empty string"},
		{`(a*)(b*)`, "empty string"},
		{`sk-[a-z`, "bad regular expression: missing closing ]"},
	} {
		re, err := schema.CompileRedactPattern(tc.pattern)
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%q refused: %v", tc.pattern, err)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%q: error %v, want one saying %q", tc.pattern, err, tc.refused)
		case err == nil:
			// An accepted pattern never matches zero characters anywhere.
			for _, p := range probes {
				for _, m := range re.FindAllStringIndex(p, -1) {
					if m[0] == m[1] {
						t.Errorf("accepted %q matches empty at %d of %q", tc.pattern, m[0], p)
					}
				}
			}
		}
	}
}
