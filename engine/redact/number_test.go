package redact_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/redact"
)

// metres is a named number type, met only through reflection.
type metres float64

// A number is matched by its decimal text as JSON writes it, whatever Go
// type carries it, and replaced whole by the marker string.
func TestValueRedactsNumbersByValueAndPattern(t *testing.T) {
	const pin = "987654321012"
	r := redact.New([]string{pin}, []*regexp.Regexp{regexp.MustCompile(`4111[0-9]{12}`)})
	cases := []struct {
		name string
		in   any
		want any // redact.Marker, or the value unchanged
	}{
		{"float64 equal to a secret", 987654321012.0, redact.Marker},
		{"float64 holding a secret", 9876543210125.0, redact.Marker},
		{"float64 with a fraction holding a secret", 987654321012.5, redact.Marker},
		{"float64 a pattern matches", 4111111111111111.0, redact.Marker},
		{"negative float64 a pattern matches", -4111111111111111.0, redact.Marker},
		{"int", 987654321012, redact.Marker},
		{"int64", int64(4111111111111111), redact.Marker},
		{"uint64", uint64(4111111111111111), redact.Marker},
		{"json.Number", json.Number("987654321012"), redact.Marker},
		{"json.Number in exponent form", json.Number("4.111111111111111e15"), redact.Marker},
		{"named number type", metres(987654321012), redact.Marker},
		{"float32", float32(4111111111111111), redact.Marker},
		{"another number", 42.5, 42.5},
		{"another big number", 1234567890123.0, 1234567890123.0},
		{"another json.Number", json.Number("7"), json.Number("7")},
		{"bool", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := redact.Value(r, map[string]any{"v": c.in, "list": []any{c.in}})
			if out["v"] != c.want || out["list"].([]any)[0] != c.want {
				t.Fatalf("got %#v and %#v, want %#v", out["v"], out["list"], c.want)
			}
			if _, err := json.Marshal(out); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Where encoding/json writes an exponent (from 1e21, below 1e-6), the plain
// decimal digits are matched too.
func TestValueRedactsNumbersWrittenWithAnExponent(t *testing.T) {
	big := redact.New([]string{"1000000000000000000000"}, nil)
	if out := redact.Value(big, map[string]any{"v": 1e21}); out["v"] != redact.Marker {
		t.Errorf("1e21: %#v", out["v"])
	}
	exp := redact.New([]string{"1e+21"}, nil) // the text JSON writes
	if out := redact.Value(exp, map[string]any{"v": 1e21}); out["v"] != redact.Marker {
		t.Errorf("1e21 by its JSON text: %#v", out["v"])
	}
	small := redact.New(nil, []*regexp.Regexp{regexp.MustCompile(`e-7$`)})
	if out := redact.Value(small, map[string]any{"v": 1e-7}); out["v"] != redact.Marker {
		t.Errorf("1e-7 (JSON writes e-7, not e-07): %#v", out["v"])
	}
}

// A number in an event's payload is redacted where the event carries it,
// and the encoded event no longer holds the digits.
func TestValueRedactsNumbersInsideStructs(t *testing.T) {
	r := redact.New([]string{"987654321012"}, []*regexp.Regexp{regexp.MustCompile(`4111[0-9]{12}`)})
	type envelope struct {
		Value map[string]any `json:"value"`
		Turn  int            `json:"turn"`
		Raw   json.RawMessage
	}
	in := envelope{Value: map[string]any{"pin": 987654321012.0, "card": 4111111111111111.0, "ok": 1.0}, Turn: 3,
		Raw: json.RawMessage(`{"card":4111111111111111,"n":[987654321012]}`)}
	out := redact.Value(r, in)
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"987654321012", "4111111111111111", "9.87654321012e+11", "4.111111111111111e+15"} {
		if strings.Contains(string(b), s) {
			t.Errorf("%s in %s", s, b)
		}
	}
	if out.Value["ok"] != 1.0 || out.Turn != 3 || in.Value["pin"] != 987654321012.0 {
		t.Errorf("out %+v, in %+v", out, in)
	}
}

// A pattern that cannot match a number's text (its literal prefix holds a
// letter) costs a number nothing; one that can is checked.
func TestNumberCheckAllocations(t *testing.T) {
	v := map[string]any{"a": []any{"b", 1.5, 42.0, int64(7)}}
	letters := redact.New([]string{"sk-live-7f3a9c1d"}, []*regexp.Regexp{regexp.MustCompile(`pw-[0-9]+`)})
	if n := testing.AllocsPerRun(100, func() { redact.Value(letters, v) }); n > 1 && !raceEnabled {
		t.Errorf("%v allocations with patterns no number can match", n)
	}
	digits := redact.New(nil, []*regexp.Regexp{regexp.MustCompile(`4111[0-9]{12}`)})
	if out := redact.Value(digits, v); out["a"].([]any)[1] != 1.5 {
		t.Errorf("a number changed: %v", out)
	}
}

// A raw message is matched as the JSON it holds: a secret spelled with
// escapes or a number written with an exponent is found; a clean message
// comes back as it was, without an allocation.
func TestRawMessageSecretsBehindEscapesAndExponents(t *testing.T) {
	r := redact.New([]string{"987654321012", "tok-raw-5e5e"}, []*regexp.Regexp{regexp.MustCompile(`^4111[0-9]{12}$`)})
	cases := map[string]string{
		`{"card":"4111111111111111"}`:           `{"card":"[redacted]"}`, // an anchored pattern matches the decoded string
		`{"pin":9.87654321012e11}`:              `{"pin":"[redacted]"}`,
		`{"card":4111111111111111}`:             `{"card":"[redacted]"}`, // the number's whole text
		`{"pin":987654321012}`:                  `{"pin":"[redacted]"}`,
		`{"pin":987654321012.0}`:                `{"pin":"[redacted]"}`,
		`{"pin":98765432101.2e1}`:               `{"pin":"[redacted]"}`,
		`{"t":"tok-raw-\u0035e5e"}`:             `{"t":"[redacted]"}`,
		`{"tok-raw-5e5e":1}`:                    `{"[redacted]":1}`,
		`{"n":[1,-2,3.5,1e3],"s":"plain text"}`: `{"n":[1,-2,3.5,1e3],"s":"plain text"}`,
	}
	for in, want := range cases {
		out := redact.Value(r, json.RawMessage(in))
		var got, w any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("%s: got %s, want %s", in, out, want)
		}
	}
	for _, clean := range []string{`{"type":"object","properties":{"distance_m":{"type":"number","maximum":1}},"required":["distance_m"]}`,
		`{"distance_m":0.5,"turn":-3,"ok":true,"none":null}`} {
		raw := json.RawMessage(clean)
		if n := testing.AllocsPerRun(100, func() { redact.Value(r, raw) }); n > 1 && !raceEnabled {
			t.Errorf("%v allocations for the clean raw message %s", n, clean)
		}
	}
}
