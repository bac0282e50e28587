package redact_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/internal/testutil"
)

// encodedSecrets: a plain token, one with the characters base64 and
// percent-encoding treat apart (space, "/", "+", "=", "?", "&"), and one
// beyond ASCII; each at least redact.MinEncodedLen bytes.
var encodedSecrets = []string{
	"sk-live-7f3a9c1d",
	"p@ss w/rd+x=y?&z",
	"clé-🔑-4242-sesame",
}

// encodedSpellings lists the spellings of b the redactor must not let through, by
// name: base64 in both alphabets, padded or not, percent-encoding of every
// common writer, hex.
func encodedSpellings(b []byte) map[string]string {
	s := string(b)
	out := map[string]string{
		"base64 std":            base64.StdEncoding.EncodeToString(b),
		"base64 std unpadded":   base64.RawStdEncoding.EncodeToString(b),
		"base64 url":            base64.URLEncoding.EncodeToString(b),
		"base64 url unpadded":   base64.RawURLEncoding.EncodeToString(b),
		"query escape":          url.QueryEscape(s),
		"path escape":           url.PathEscape(s),
		"hex lower":             hex.EncodeToString(b),
		"hex upper":             strings.ToUpper(hex.EncodeToString(b)),
		"query escape lower":    lowerPercent(url.QueryEscape(s)),
		"path escape lower":     lowerPercent(url.PathEscape(s)),
		"every byte escaped":    percentAll(b, "%%%02X"),
		"every byte esc. lower": percentAll(b, "%%%02x"),
	}
	return out
}

func percentAll(b []byte, format string) string {
	var sb strings.Builder
	for _, c := range b {
		fmt.Fprintf(&sb, format, c)
	}
	return sb.String()
}

var escape = regexp.MustCompile(`%[0-9A-F]{2}`)

func lowerPercent(s string) string { return escape.ReplaceAllStringFunc(s, strings.ToLower) }

// Each secret, alone or inside longer encoded data at every byte offset
// (base64 spells the same bytes three ways by offset mod 3), in every
// spelling: what String, Value and JSONText return decodes to no secret.
func TestEncodedSecretsAreRedacted(t *testing.T) {
	r := redact.New(encodedSecrets, nil)
	for _, sec := range encodedSecrets {
		for before := range 4 {
			for after := range 3 {
				data := append(append([]byte("ABCD"[:before]), sec...), "xyz"[:after]...)
				for name, text := range encodedSpellings(data) {
					in := "result: " + text + " (end)"
					outs := map[string]string{
						"String":   r.String(in),
						"Value":    redact.Value(r, map[string]any{"blob": in})["blob"].(string),
						"JSONText": r.JSONText(`{"blob":` + jsonString(in) + `}`),
					}
					for via, out := range outs {
						if s, how := testutil.EncodedSecret(out, encodedSecrets); s != "" {
							t.Errorf("%q as %s with %d bytes before, %d after: %s gives %q, which decodes (%s) to %q",
								sec, name, before, after, via, out, how, s)
						}
						if !strings.Contains(out, redact.Marker) {
							t.Errorf("%q as %s: %s left %q unmarked", sec, name, via, out)
						}
					}
				}
			}
		}
	}
}

// A secret in a base64 blob that JSON text spells with escapes ("\/" for
// "/", "\u0041" for "A"), as a tool result's raw JSON may.
func TestEncodedSecretBehindJSONEscapes(t *testing.T) {
	sec := "p@ss w/rd+x=y?&z" // "/" and "+" in its base64 too
	r := redact.New([]string{sec}, nil)
	blob := base64.StdEncoding.EncodeToString(append([]byte("\x00\xff?"), sec...))
	escaped := strings.NewReplacer("/", `\/`, "A", `\u0041`, "c", `\u0063`).Replace(blob)
	raw := `{"image":"` + escaped + `"}`
	for via, out := range map[string]string{
		"JSONText":       r.JSONText(raw),
		"RawMessage":     string(redact.Value(r, json.RawMessage(raw))),
		"truncated JSON": r.JSONText(raw[:len(raw)-2]),
	} {
		dec := out
		var s string
		if json.Unmarshal([]byte(out), &struct{ Image *string }{&s}) == nil {
			dec = s
		}
		if leak, how := testutil.EncodedSecret(strings.ReplaceAll(dec, `\/`, "/"), []string{sec}); leak != "" {
			t.Errorf("%s: %q decodes (%s) to the secret", via, out, how)
		}
	}
}

// The floor: a secret shorter than MinEncodedLen is matched only as it
// stands (its encodings are a few characters that ordinary data holds),
// and data without a secret comes back as it was.
func TestEncodingsFloorAndCleanData(t *testing.T) {
	short := "abc1234" // 7 bytes
	long := "abc12345"
	r := redact.New([]string{short, long}, nil)
	if in := "key " + base64.StdEncoding.EncodeToString([]byte(short)); r.String(in) != in {
		t.Errorf("the base64 of a %d-byte secret was redacted: %q", len(short), r.String(in))
	}
	if in := "key " + base64.StdEncoding.EncodeToString([]byte(long)); r.String(in) == in {
		t.Errorf("the base64 of a %d-byte secret was not redacted: %q", len(long), in)
	}
	clean := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("the quick brown fox jumps "), 20))
	if got := r.String(clean); got != clean {
		t.Errorf("data without a secret changed:\n%s\n%s", clean, got)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The example of docs/security.md, as it reads there.
func TestEncodingsDocExample(t *testing.T) {
	r := redact.New([]string{"tok/arm+77 aa"}, nil)
	in := map[string]any{"auth": "Basic dG9rL2FybSs3NyBhYQ==", "url": "/open?t=tok%2Farm%2B77+aa", "dump": "746f6b2f61726d2b3737206161"}
	want := map[string]any{"auth": "Basic [redacted]", "url": "/open?t=[redacted]", "dump": "[redacted]"}
	if got := redact.Value(r, in); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
