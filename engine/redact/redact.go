package redact

import (
	"cmp"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Marker replaces a secret, or a whole map key that holds one.
const Marker = "[redacted]"

// maxDepth bounds the walk; a value nested deeper (only possible through
// cyclic Go data, JSON stops at 10000) is dropped rather than left unchecked.
const maxDepth = 10000

// Redactor rewrites the strings of a value that hold a secret. Its zero
// value and a nil *Redactor redact nothing. It is safe for concurrent use.
type Redactor struct {
	secrets     []string // every secret and its encodings, longest first, so a secret containing another goes whole
	secretBytes [][]byte // the same, for matching a number's text without a string
	// plain and plainBytes are the secrets as given, longest first: all
	// that can be in text without a run of the encodings' characters (see
	// spellings), which is most text.
	plain      []string
	plainBytes [][]byte
	spellings  spellings
	patterns   []*regexp.Regexp
	// numberPatterns are the patterns that can match a number's text.
	numberPatterns []*regexp.Regexp
	// fields caches, per struct type, the exported fields that can hold a
	// string (reflect.Type.Field is the walk's main cost otherwise).
	fields sync.Map // reflect.Type → []field
}

// New builds a Redactor from exact secret values and patterns. Empty and
// duplicate secrets are dropped; a secret of MinEncodedLen bytes or more is
// also matched in its encodings (base64, percent-encoding, hex: see
// encodings.go). Patterns must not match the empty string (see
// schema.CompileRedactPattern), which would shred every string.
func New(secrets []string, patterns []*regexp.Regexp) *Redactor {
	var s []string
	for _, v := range secrets {
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	longestFirst := func(a, b string) int { return cmp.Compare(len(b), len(a)) }
	slices.SortStableFunc(s, longestFirst)
	plain := slices.Clone(s)
	// Each secret's encodings are matched as secrets of their own (see
	// encodings), derived here once rather than per event.
	var sp spellings
	for _, v := range plain {
		for _, e := range encodings(v) {
			if !slices.Contains(s, e) {
				s = append(s, e)
				sp.add(e)
			}
		}
	}
	slices.SortStableFunc(s, longestFirst)
	return &Redactor{secrets: s, secretBytes: toBytes(s), plain: plain, plainBytes: toBytes(plain), spellings: sp,
		patterns: slices.Clone(patterns), numberPatterns: numberPatterns(patterns)}
}

func toBytes(s []string) [][]byte {
	b := make([][]byte, len(s))
	for i, v := range s {
		b[i] = []byte(v)
	}
	return b
}

// candidates are the secrets s may hold: the plain ones, and the encodings
// too only when s has a run of characters an encoding could be.
func (r *Redactor) candidates(s string) []string {
	if longRun(s, &r.spellings) {
		return r.secrets
	}
	return r.plain
}

// candidateBytes is candidates for a piece of raw text or a number's.
func (r *Redactor) candidateBytes(b []byte) [][]byte {
	if longRun(b, &r.spellings) {
		return r.secretBytes
	}
	return r.plainBytes
}

// Active reports whether there is anything to redact.
func (r *Redactor) Active() bool {
	return r != nil && (len(r.secrets) > 0 || len(r.patterns) > 0)
}

// String returns s with every secret and every pattern match replaced by
// Marker.
func (r *Redactor) String(s string) string {
	if !r.Active() {
		return s
	}
	for _, sec := range r.candidates(s) {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Marker)
		}
	}
	for _, re := range r.patterns {
		if re.MatchString(s) {
			s = re.ReplaceAllLiteralString(s, Marker)
		}
	}
	return s
}

// holds reports whether s contains a secret or matches a pattern.
func (r *Redactor) holds(s string) bool {
	for _, sec := range r.candidates(s) {
		if strings.Contains(s, sec) {
			return true
		}
	}
	for _, re := range r.patterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// Value returns v with its secrets removed. Only data is rewritten: plain
// string values (struct fields, map values, slice elements, values held in
// interfaces), never struct field names, and never named string types (an
// event's kind, a done reason: the engine's own vocabulary, which no
// back-end writes). A number held in an interface (JSON-like data: a
// back-end's float64, an int, a json.Number) whose decimal text holds a
// secret or matches a pattern becomes the string Marker; numbers in typed
// fields (the engine's counters, a clearance reading) cannot hold a string
// and are left as they are. A map key that holds a secret is replaced whole by
// Marker ("[redacted]#2", "#3"… when several would collide), so no entry is
// lost. Raw JSON (a json.RawMessage, a string field tagged
// `redact:"json"`) is matched as the strings and numbers it decodes to, in
// whatever spelling (see JSONText). Byte slices (image data) are left alone. v itself is never
// modified: what changes is copied, what does not is shared, so a value
// with nothing to redact comes back as it was (JSON-like data is walked
// without reflection or allocation).
func Value[T any](r *Redactor, v T) T {
	if !r.Active() {
		return v
	}
	return walkValue(r, v)
}

// walkValue is Value's slow path, apart so that v escapes to the heap only
// when there is something to redact.
func walkValue[T any](r *Redactor, v T) T {
	rv := reflect.ValueOf(&v).Elem()
	out, changed := r.walk(rv, 0)
	if !changed {
		return v
	}
	return out.Interface().(T)
}
