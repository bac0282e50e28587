package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The copy execute takes must be deep: a hook rewriting a nested argument
// in place must not change what the model event recorded.
func TestCloneValueIsDeep(t *testing.T) {
	orig, err := parseArgs([]byte(`{"a":1,"path":[{"x":0.5},"s",null,true],"o":{"k":"v"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := parseArgs([]byte(`{"a":1,"path":[{"x":0.5},"s",null,true],"o":{"k":"v"}}`))
	c := cloneValue(orig).(map[string]any)
	if !reflect.DeepEqual(c, orig) {
		t.Fatalf("copy %#v differs from %#v", c, orig)
	}
	c["a"] = 2.0
	c["path"].([]any)[0].(map[string]any)["x"] = 9.0
	c["o"].(map[string]any)["k"] = "w"
	if !reflect.DeepEqual(orig, want) {
		t.Fatalf("changing the copy changed the original: %#v", orig)
	}
}

// parseArgs accepts what json.Unmarshal into a map accepts, with the same
// values, and says why it refuses the rest.
func TestParseArgs(t *testing.T) {
	for _, c := range []struct{ raw, err string }{
		{``, ""}, {`{}`, ""}, {` {"distance_m":0.5,"direction":"forward"} `, ""}, {`{"a":1,"a":[{}]}`, ""},
		{`{"s":"\ud800\u00e9\ud83e\udd16"}`, ""}, {"{\"s\":\"\xff\"}", ""}, {`{"n":-0,"m":1e-400}`, ""},
		{`null`, "want a JSON object, got null"}, {` null`, "want a JSON object, got null"},
		{`[1]`, "want a JSON object, got an array"}, {`"x"`, "want a JSON object, got a string"},
		{`1`, "want a JSON object, got a number"}, {`true`, "want a JSON object, got a boolean"},
		{` `, "want a JSON object: unexpected end of the text, want a value at offset 1"},
		{`{"a":1e400}`, "want a JSON object: number 1e400 is out of float64 range at offset 5"},
		{`{"a":1}x`, "want a JSON object: unexpected 'x', want nothing after the top-level value at offset 7"},
	} {
		got, err := parseArgs([]byte(c.raw))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: got %v, %v; want error %q", c.raw, got, err, c.err)
			}
			continue
		}
		want := map[string]any{}
		if c.raw != "" {
			if err := json.Unmarshal([]byte(c.raw), &want); err != nil {
				t.Fatal(err)
			}
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v, %v; want %#v", c.raw, got, err, want)
		}
	}
}

// FuzzParseArgs feeds arbitrary tool-call arguments (as a model returns
// them) to the model-response → call mapping: never a panic; the arguments
// accepted and their values are json.Unmarshal's into a map; accepted
// arguments are an object that survives a round trip; null, a list, a
// string or a number is refused. Seeds: testdata/fuzz/FuzzParseArgs.
func FuzzParseArgs(f *testing.F) {
	f.Add([]byte(`{"direction":"front","distance_m":0.5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := parseArgs(data)
		if len(data) > 0 {
			var want map[string]any
			werr := json.Unmarshal(data, &want)
			if ok := werr == nil && want != nil; ok != (err == nil) || ok && !reflect.DeepEqual(args, want) {
				t.Fatalf("%q: got %#v, %v; json.Unmarshal gives %#v, %v", data, args, err, want, werr)
			}
		}
		if err != nil {
			return
		}
		if args == nil {
			t.Fatal("nil arguments without an error")
		}
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatalf("accepted arguments do not encode: %v", err)
		}
		again, err := parseArgs(b)
		if err != nil || !reflect.DeepEqual(again, args) {
			t.Fatalf("round trip changed the arguments: %v %v", again, err)
		}
		if len(data) > 0 {
			var v any
			if json.Unmarshal(data, &v) == nil {
				if _, isObject := v.(map[string]any); !isObject {
					t.Fatalf("accepted %T as arguments", v)
				}
			}
		}
	})
}

// Argument text a provider could not read as JSON arrives as a JSON string
// (model.ArgumentsFromText): the reason is the decoder's, not "got a string".
func TestParseArgsMalformedText(t *testing.T) {
	deep := strings.Repeat("[", 20000)
	for _, c := range []struct{ text, want string }{
		{`{"a":` + deep, "nesting deeper than 10000 objects and arrays"},
		{`{"a":1`, "the arguments are not valid JSON: unexpected end of the text"},
		{`hello`, "want a JSON object, got a string"},
		{`{"a":1}`, "want a JSON object, got a string"}, // a string that holds JSON is still a string
	} {
		raw, _ := json.Marshal(c.text)
		_, err := parseArgs(raw)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.20q: got %v, want %q", c.text, err, c.want)
		}
	}
}
