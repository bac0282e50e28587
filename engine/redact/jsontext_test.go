package redact_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/thea-harness/thea/engine/redact"
)

// The secrets of the spelling tests: an ASCII token, one with a character
// outside the BMP (a surrogate pair in JSON) and one with a slash, and a
// pattern's match.
const (
	armToken = "ARMTOKEN-9e8d7c6b5a"
	keyToken = "clé-🔑-4242-sesame"
	slashTok = "path/to/secret-77"
)

func spellingRedactor() *redact.Redactor {
	return redact.New([]string{armToken, keyToken, slashTok}, []*regexp.Regexp{regexp.MustCompile(`pw-[0-9]{4,}`)})
}

// spell writes s as a JSON string body, the characters at the positions
// pick chooses escaped: \uXXXX in lower or upper case hex (a surrogate
// pair beyond the BMP), \/ for a slash.
func spell(s string, pick func(i int) (escape, upper bool)) string {
	var b strings.Builder
	for i, c := range []rune(s) {
		esc, upper := pick(i)
		switch {
		case !esc:
			b.WriteRune(c)
		case c == '/' && !upper:
			b.WriteString(`\/`)
		default:
			units := []uint16{uint16(c)}
			if c > 0xFFFF {
				r1, r2 := utf16.EncodeRune(c)
				units = []uint16{uint16(r1), uint16(r2)}
			}
			for _, u := range units {
				h := fmt.Sprintf(`\u%04x`, u)
				if upper {
					h = `\u` + strings.ToUpper(h[2:])
				}
				b.WriteString(h)
			}
		}
	}
	return b.String()
}

// decodedStrings lists every string a JSON reader decodes from text: all
// strings and keys of valid JSON; in other text, each string literal
// decoded on its own (an unterminated one closed).
func decodedStrings(t *testing.T, text string) []string {
	t.Helper()
	var doc any
	if json.Unmarshal([]byte(text), &doc) == nil {
		var out []string
		var walk func(x any)
		walk = func(x any) {
			switch y := x.(type) {
			case string:
				out = append(out, y)
				// JSON text inside a string: decoded too.
				var inner any
				if json.Unmarshal([]byte(y), &inner) == nil {
					walk(inner)
				}
			case map[string]any:
				for k, v := range y {
					out = append(out, k)
					walk(v)
				}
			case []any:
				for _, v := range y {
					walk(v)
				}
			}
		}
		walk(doc)
		return out
	}
	var out []string
	for _, m := range regexp.MustCompile(`"(?:[^"\\]|\\.)*"?`).FindAllString(text, -1) {
		if !strings.HasSuffix(m, `"`) || len(m) == 1 || strings.HasSuffix(m, `\"`) {
			m += `"`
		}
		var s string
		if json.Unmarshal([]byte(m), &s) == nil {
			out = append(out, s)
		}
	}
	return append(out, text)
}

// leaked reports a secret or a pattern match in what text decodes to.
func leaked(t *testing.T, text string) string {
	t.Helper()
	re := regexp.MustCompile(`pw-[0-9]{4,}`)
	for _, s := range decodedStrings(t, text) {
		for _, sec := range []string{armToken, keyToken, slashTok} {
			if strings.Contains(s, sec) {
				return sec
			}
		}
		if re.MatchString(s) {
			return re.FindString(s)
		}
	}
	return ""
}

// Every spelling a JSON reader decodes to a secret is redacted, in valid
// JSON (which stays valid) and in text that is not JSON (a truncated
// object, a provider's malformed arguments).
func TestJSONTextRedactsEverySpelling(t *testing.T) {
	r := spellingRedactor()
	all := func(int) (bool, bool) { return true, false }
	upper := func(int) (bool, bool) { return true, true }
	one := func(i int) (bool, bool) { return i == 15, i%2 == 0 }
	cases := map[string]string{
		"plain":                      armToken,
		"one escape":                 spell(armToken, one),
		"the issue's spelling":       strings.Replace(armToken, "7", `\u0037`, 1),
		"every char, lower hex":      spell(armToken, all),
		"every char, upper hex":      spell(armToken, upper),
		"mixed case hex":             `AR\u004DTO\u004bEN-9e8d7c6b5a`,
		"surrogate pair":             spell(keyToken, func(i int) (bool, bool) { return i == 4, false }),
		"surrogate pair, upper hex":  spell(keyToken, upper),
		"escaped slash":              strings.ReplaceAll(slashTok, "/", `\/`),
		"pattern behind an escape":   `pw-\u00312345`,
		"secret inside longer text":  "open with " + spell(armToken, one) + " now",
		"secret split by an escaped": "ARMTOKEN-9e8d7c6b5\\u0061",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			for _, doc := range []string{
				`{"token":"` + body + `"}`,
				`{"` + body + `":1,"n":[1,"` + body + `"]}`,
				`{"token":"` + body + `","more":`, // truncated: not JSON
				`{"token":"` + body,               // an unterminated string
			} {
				out := r.JSONText(doc)
				if sec := leaked(t, out); sec != "" {
					t.Errorf("%s → %s: still decodes to %q", doc, out, sec)
				}
				if json.Valid([]byte(doc)) && !json.Valid([]byte(out)) {
					t.Errorf("%s → %s: no longer valid JSON", doc, out)
				}
				if !strings.Contains(out, redact.Marker) {
					t.Errorf("%s → %s: no marker", doc, out)
				}
			}
		})
	}
	clean := `{"distance_m": 0.5, "note": "caf\u00e9 \/ ok"}`
	if out := r.JSONText(clean); out != clean {
		t.Errorf("clean text changed: %s → %s", clean, out)
	}
}

// A json.RawMessage that is not valid JSON is matched by its decoded
// string literals too.
func TestRawMessageNotJSONBehindEscapes(t *testing.T) {
	r := spellingRedactor()
	in := json.RawMessage(`{"t":"` + spell(armToken, func(i int) (bool, bool) { return i > 10, false }) + `"`)
	out := redact.Value(r, in)
	if sec := leaked(t, string(out)); sec != "" {
		t.Fatalf("%s → %s: still decodes to %q", in, out, sec)
	}
	// The same text wrapped in a JSON string, as a provider adapter keeps
	// malformed arguments: the string's content is decoded again.
	wrapped, err := json.Marshal(string(in))
	if err != nil {
		t.Fatal(err)
	}
	out = redact.Value(r, json.RawMessage(wrapped))
	var inner string
	if err := json.Unmarshal(out, &inner); err != nil {
		t.Fatalf("%s → %s: %v", wrapped, out, err)
	}
	if sec := leaked(t, inner); sec != "" {
		t.Fatalf("%s → %s: its content still decodes to %q", wrapped, out, sec)
	}
}

// A string field tagged redact:"json" is redacted as JSON text; an
// untagged one as text.
func TestTaggedFieldIsJSONText(t *testing.T) {
	type recorded struct {
		Args  string `json:"args" redact:"json"`
		Plain string `json:"plain"`
	}
	esc := strings.Replace(armToken, "7", `\u0037`, 1)
	out := redact.Value(spellingRedactor(), recorded{Args: `{"t":"` + esc + `"}`, Plain: esc})
	if out.Args != `{"t":"[redacted]"}` || out.Plain != esc {
		t.Fatalf("got %+v", out)
	}
}

// Random spellings of every secret, in random places of JSON and of
// truncated JSON: none survives in what a JSON reader decodes.
func FuzzJSONTextSpellings(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, "prefix ", " suffix")
	}
	r := spellingRedactor()
	f.Fuzz(func(t *testing.T, seed uint64, pre, post string) {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		preJSON, _ := json.Marshal(pre)
		postJSON, _ := json.Marshal(post)
		for _, sec := range []string{armToken, keyToken, slashTok, "pw-12345"} {
			body := spell(sec, func(int) (bool, bool) { return rng.IntN(3) == 0, rng.IntN(2) == 0 })
			p, q := string(preJSON[1:len(preJSON)-1]), string(postJSON[1:len(postJSON)-1])
			doc := `{"a":` + string(preJSON) + `,"b":["` + p + body + q + `"]}`
			if rng.IntN(2) == 0 {
				doc = doc[:len(doc)-2] // truncated
			}
			out := r.JSONText(doc)
			if s := leaked(t, out); s != "" {
				t.Fatalf("%s → %s: still decodes to %q", doc, out, s)
			}
			if json.Valid([]byte(doc)) && !json.Valid([]byte(out)) {
				t.Fatalf("%s → %s: no longer valid JSON", doc, out)
			}
		}
	})
}
