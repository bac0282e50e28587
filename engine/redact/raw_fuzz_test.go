package redact_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/thea-harness/thea/engine/redact"
)

// A raw message left as it is must hold nothing the decoded data would
// show: decoding it and redacting the result changes nothing either.
func FuzzRawMessageLeftAlone(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"pin":987654321012}`, `{"x":"tok-9"}`, `[0.5,-3,1e3]`,
		`{"card":4111111111111111}`, `{"k":"\u0074ok-9"}`, `"4111111111111111"`, `{"n":9.87654321012e11}`} {
		f.Add([]byte(s))
	}
	r := redact.New([]string{"987654321012", "tok-9"}, []*regexp.Regexp{regexp.MustCompile(`^4111[0-9]{12}$`), regexp.MustCompile(`pw-[0-9]+`)})
	f.Fuzz(func(t *testing.T, raw []byte) {
		out := redact.Value(r, json.RawMessage(raw))
		if !bytes.Equal(out, raw) {
			return // redacted (or not JSON): the decoding path ran
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return
		}
		if red := redact.Value(r, doc); !reflect.DeepEqual(red, doc) {
			t.Fatalf("%s left alone, but its data redacts to %#v", raw, red)
		}
	})
}
