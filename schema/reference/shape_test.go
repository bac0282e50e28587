package reference

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/parser"
)

// TestDescribe pins how CUE expressions read in the reference.
func TestDescribe(t *testing.T) {
	f, err := parse("t.cue", []byte(`
#Duration: =~"^[0-9]+s$"
#NonEmpty: string
#Provider: string
#Model: {provider!: #Provider}
`), map[string]string{"#Provider": "provider name"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ expr, text, constraints, def string }{
		{`(*"60s" | string) & #Duration`, "[duration](#value-types)", "", `"60s"`},
		{`(*4096 | int) & >0`, "int", "> 0", "4096"},
		{`number & >=0 & <=2`, "number", "≥ 0, ≤ 2", ""},
		{`*"wait" | "refuse" | "none"`, "one of `\"wait\"` \\| `\"refuse\"` \\| `\"none\"`", "", `"wait"`},
		{`[...#NonEmpty]`, "list of string", "non-empty", ""},
		{`{[string]: string}`, "map of name → string", "", ""},
		{`{...}`, "object (any fields)", "", ""},
		{`=~"^https?://"`, "string", "matches `\"^https?://\"`", ""},
		{`*"terminal" | #Provider`, "provider name", "", `"terminal"`},
		{`*false | bool`, "bool", "", "false"},
		{`string & !=""`, "string", "non-empty", ""},
	} {
		e, err := parser.ParseExpr("t", tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		s := f.describe(e)
		if s.text != tc.text || strings.Join(s.constraints, ", ") != tc.constraints || s.def != tc.def {
			t.Errorf("%s: got (%q, %q, %q), want (%q, %q, %q)", tc.expr, s.text, strings.Join(s.constraints, ", "), s.def, tc.text, tc.constraints, tc.def)
		}
	}
	// A struct definition is an object documented in its own section.
	e, _ := parser.ParseExpr("t", `[...#Model]`)
	if s := f.describe(e); s.obj == nil || s.obj.def != "#Model" || s.obj.suffix != "[]" {
		t.Errorf("[...#Model]: got %+v, want a list of the #Model object", s)
	}
}
