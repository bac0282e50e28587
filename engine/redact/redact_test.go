package redact_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/thea-harness/thea/engine/redact"
)

const secret = "sk-live-7f3a9c1d"

func newRedactor() *redact.Redactor {
	return redact.New([]string{secret, "", secret}, []*regexp.Regexp{regexp.MustCompile(`pw-[0-9]+`)})
}

type kind string // a named string type: vocabulary, never rewritten

type payload struct {
	Kind   kind              `json:"kind"`
	Text   string            `json:"text"`
	Args   map[string]any    `json:"args"`
	Labels map[string]string `json:"labels"`
	Data   []byte            `json:"-"`
	Inner  *payload          `json:"inner,omitempty"`
	Raw    json.RawMessage   `json:"raw,omitempty"`
	hidden string
}

// Only string values change: keys stay, except a key holding a secret,
// which is replaced whole; colliding replacements keep every entry.
func TestValueKeepsStructure(t *testing.T) {
	in := payload{
		Kind: "sk-live-7f3a9c1d-kind", // vocabulary: left alone
		Text: "token " + secret + " and pw-1234 here",
		Args: map[string]any{
			"ask":            "no secret here",
			"key-" + secret:  "first",
			secret + "-b":    "second",
			"pw-99":          "third",
			"[redacted]":     "a key that already reads like the marker",
			"nested":         []any{"x " + secret, map[string]any{"deep": "pw-7"}, 3.5, json.Number("42")},
			"number-literal": json.Number("4111"),
		},
		Labels: map[string]string{"camera": "head", "owner": secret},
		Data:   []byte(secret),
		Inner:  &payload{Text: secret},
		Raw:    json.RawMessage(`{"k":"` + secret + `","n":1}`),
		hidden: secret,
	}
	out := redact.Value(newRedactor(), in)

	if out.Kind != in.Kind {
		t.Errorf("named string type rewritten: %q", out.Kind)
	}
	if want := "token [redacted] and [redacted] here"; out.Text != want {
		t.Errorf("Text = %q, want %q", out.Text, want)
	}
	if out.Args["ask"] != "no secret here" {
		t.Errorf("key without a secret changed: %v", out.Args)
	}
	// Five entries kept: ask, nested, number-literal, the pre-existing
	// "[redacted]", and three secret-holding keys renamed without loss.
	if len(out.Args) != len(in.Args) {
		t.Fatalf("entries lost: %d of %d: %v", len(out.Args), len(in.Args), out.Args)
	}
	if out.Args["[redacted]"] != "a key that already reads like the marker" {
		t.Errorf("existing key overwritten: %v", out.Args)
	}
	got := map[any]bool{}
	for _, k := range []string{"[redacted]#2", "[redacted]#3", "[redacted]#4"} {
		v, ok := out.Args[k]
		if !ok {
			t.Fatalf("no key %q in %v", k, out.Args)
		}
		got[v] = true
	}
	if !got["first"] || !got["second"] || !got["third"] {
		t.Errorf("renamed keys lost values: %v", out.Args)
	}
	nested := out.Args["nested"].([]any)
	if nested[0] != "x [redacted]" || nested[1].(map[string]any)["deep"] != "[redacted]" || nested[2] != 3.5 || nested[3] != json.Number("42") {
		t.Errorf("nested = %#v", nested)
	}
	if out.Labels["owner"] != "[redacted]" || out.Labels["camera"] != "head" {
		t.Errorf("Labels = %v", out.Labels)
	}
	if string(out.Data) != secret {
		t.Errorf("binary data rewritten: %q", out.Data)
	}
	if out.Inner.Text != "[redacted]" {
		t.Errorf("Inner.Text = %q", out.Inner.Text)
	}
	if string(out.Raw) != `{"k":"[redacted]","n":1}` {
		t.Errorf("Raw = %s", out.Raw)
	}

	// The input is untouched: the engine keeps its own copy.
	if in.Text == out.Text || in.Args["nested"].([]any)[0] != "x "+secret || in.Inner.Text != secret || in.Labels["owner"] != secret {
		t.Error("the input was modified")
	}
}

// A number a pattern matches becomes a string: "[redacted]" is no number.
func TestValueRedactsNumbersAsStrings(t *testing.T) {
	r := redact.New(nil, []*regexp.Regexp{regexp.MustCompile(`4111[0-9]+`)})
	out := redact.Value(r, map[string]any{"card": json.Number("4111111111111111")})
	if out["card"] != "[redacted]" {
		t.Fatalf("card = %#v", out["card"])
	}
	if _, err := json.Marshal(out); err != nil {
		t.Fatal(err)
	}
}

// Nothing to redact: the very same value comes back, and walking it costs
// one allocation at most (boxing the value for reflection).
func TestValueUnchangedIsShared(t *testing.T) {
	r := newRedactor()
	in := &payload{Text: "hello", Args: map[string]any{"a": []any{"b", 1.0}}, Inner: &payload{Text: "x"}}
	out := redact.Value(r, in)
	if out != in {
		t.Error("an unchanged pointer was copied")
	}
	if n := testing.AllocsPerRun(100, func() { redact.Value(r, *in) }); n > 1 && !raceEnabled {
		t.Errorf("%v allocations for a value with nothing to redact", n)
	}
	var none *redact.Redactor
	if none.Active() || redact.Value(none, "x "+secret) != "x "+secret {
		t.Error("a nil Redactor redacted")
	}
}

// A longer secret that contains a shorter one is replaced whole.
func TestLongestSecretFirst(t *testing.T) {
	r := redact.New([]string{"abcd1234", "abcd1234-extended"}, nil)
	if got := r.String("x abcd1234-extended y"); got != "x [redacted] y" {
		t.Errorf("got %q", got)
	}
}

func TestDeepCycleIsBounded(t *testing.T) {
	type node struct {
		Name string
		Next *node
	}
	n := &node{Name: secret}
	n.Next = n
	out := redact.Value(newRedactor(), n)
	if out.Name != "[redacted]" || reflect.ValueOf(out).IsNil() {
		t.Fatalf("out = %+v", out)
	}
}
