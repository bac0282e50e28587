package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/schema"
)

// oldCheck is the guard's check as it was with the JSON Schema library's
// own parser (a json.Decoder with UseNumber).
func oldCheck(g *guarded, args json.RawMessage) (json.RawMessage, string) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return nil, "not valid JSON"
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Sprintf("the arguments of %s must be a JSON object, got %s", g.def.Name, anyjson.Kind(v))
	}
	if err := g.schema.Validate(v); err != nil {
		var verr *jsonschema.ValidationError
		if errors.As(err, &verr) {
			return nil, fmt.Sprintf("invalid arguments for %s: %s", g.def.Name, describe(verr, g.props))
		}
		return nil, fmt.Sprintf("invalid arguments for %s: %v", g.def.Name, err)
	}
	return trimmed, ""
}

// The guard decides and words its refusals as it did when the schema
// library parsed the arguments: numbers reach the validator as the
// literals they were (json.Number), so integer, range and multipleOf
// checks see the same values.
func TestGuardParsesAsTheSchemaLibrary(t *testing.T) {
	sch := `{"type":"object","additionalProperties":false,"properties":{
		"n":{"type":"integer","minimum":-5,"maximum":1e30},
		"x":{"type":"number","exclusiveMaximum":2.5,"multipleOf":0.1},
		"s":{"type":"string","maxLength":3},
		"l":{"type":"array","items":{"type":"boolean"}},
		"o":{"type":"object"}}}`
	tool, err := GuardTool(&schemaTool{sch}, schema.ToolContract{}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	g := tool.(*guarded)
	for _, args := range []string{
		``, ` `, `null`, ` null `, `{}`, "\t{}\n", "\u00a0{}\v", `[]`, `"x"`, `1`, `true`, `{"n":`, `{"n":1}{}`, `{"n":1} x`,
		`{"n":1}`, `{"n":1.0}`, `{"n":1.5}`, `{"n":-5}`, `{"n":-6}`, `{"n":-0}`, `{"n":1e2}`, `{"n":1E+2}`,
		`{"n":12345678901234567890}`, `{"n":1e30}`, `{"n":1.0000000000000001e30}`, `{"n":1e400}`, `{"n":-1e400}`,
		`{"x":0.3}`, `{"x":0.30000000000000004}`, `{"x":2.5}`, `{"x":2.4999999999999999999}`, `{"x":1e-400}`, `{"x":"1"}`,
		`{"s":"abc"}`, `{"s":"abcd"}`, `{"s":"\u00e9\u00e9\u00e9"}`, `{"s":"\ud83e\udd16ab"}`, `{"s":"\ud800ab"}`,
		"{\"s\":\"\xff\xfe\xfd\"}", "{\"s\":\"\xff\xfe\xfd\xfc\"}", `{"s":"a","s":"abcd"}`, `{"s":"abcd","s":"a"}`,
		`{"l":[true,false]}`, `{"l":[true,1]}`, `{"l":[]}`, `{"o":{"deep":[1,{"a":null}]}}`, `{"z":1}`, `{"\u006e":2}`,
		`{"n":01}`, `{"n":1.}`, `{"n":.5}`, `{"n":+1}`, `{"n":NaN}`, `{"n":1,}`, "{\"s\":\"a\tb\"}",
	} {
		wantArgs, want := oldCheck(g, []byte(args))
		gotArgs, got := g.check([]byte(args))
		if want == "not valid JSON" {
			if !strings.HasPrefix(got, "the arguments of bad are not valid JSON (") || !strings.HasSuffix(got, "): send one JSON object") {
				t.Errorf("%q: %q, want it refused as not valid JSON", args, got)
			}
			continue
		}
		if got != want || !bytes.Equal(gotArgs, wantArgs) {
			t.Errorf("%q: got %q %q, want %q %q", args, gotArgs, got, wantArgs, want)
		}
	}
}

// A refusal of malformed arguments says where and what was wanted.
func TestGuardSaysWhereTheJSONBreaks(t *testing.T) {
	g, err := GuardTool(&schemaTool{`{"type":"object"}`}, schema.ToolContract{}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	env := g.Call(t.Context(), []byte(`{"distance_m" 0.5}`))
	wantFailure(t, env, `the arguments of bad are not valid JSON (unexpected '0', want ':' after an object key at offset 14): send one JSON object`)
	// The offset is in the text as the model sent it, leading space included.
	env = g.Call(t.Context(), []byte("  \n"+`{"distance_m" 0.5}`))
	wantFailure(t, env, `the arguments of bad are not valid JSON (unexpected '0', want ':' after an object key at offset 17): send one JSON object`)
	c, err := NewArgumentChecker("move", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(`{"a":[1,]}`); err == nil || !strings.Contains(err.Error(), "(unexpected ']', want a value at offset 8): type one JSON object") {
		t.Fatalf("checker: %v", err)
	}
	if err := c.Check("\t" + `{"a":[1,]}`); err == nil || !strings.Contains(err.Error(), "at offset 9)") {
		t.Fatalf("checker, leading space: %v", err)
	}
}
