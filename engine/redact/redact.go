package redact

import (
	"cmp"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
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
	secrets  []string // longest first, so a secret containing another goes whole
	patterns []*regexp.Regexp
	// fields caches, per struct type, the exported fields that can hold a
	// string (reflect.Type.Field is the walk's main cost otherwise).
	fields sync.Map // reflect.Type → []int
}

// New builds a Redactor from exact secret values and patterns. Empty and
// duplicate secrets are dropped; patterns must not match the empty string
// (see schema.CheckRedactPattern), which would shred every string.
func New(secrets []string, patterns []*regexp.Regexp) *Redactor {
	var s []string
	for _, v := range secrets {
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	slices.SortStableFunc(s, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return &Redactor{secrets: s, patterns: slices.Clone(patterns)}
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
	for _, sec := range r.secrets {
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
	for _, sec := range r.secrets {
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
// back-end writes). A map key that holds a secret is replaced whole by
// Marker ("[redacted]#2", "#3"… when several would collide), so no entry is
// lost. Byte slices (image data) are left alone. v itself is never
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

var (
	stringType = reflect.TypeFor[string]()
	numberType = reflect.TypeFor[json.Number]()
	rawType    = reflect.TypeFor[json.RawMessage]()
	anyMapType = reflect.TypeFor[map[string]any]()
)

// walk returns v's redacted copy and whether anything changed; an
// unchanged v is returned as is.
func (r *Redactor) walk(v reflect.Value, depth int) (reflect.Value, bool) {
	if depth > maxDepth {
		return reflect.Zero(v.Type()), true
	}
	switch v.Kind() {
	case reflect.String:
		if v.Type() != stringType && v.Type() != numberType {
			return v, false
		}
		s := v.String()
		if t := r.String(s); t != s {
			return reflect.ValueOf(t).Convert(v.Type()), true
		}
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		if e, ok := r.walk(v.Elem(), depth+1); ok {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(e)
			return p, true
		}
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		if v.NumMethod() == 0 { // any: usually JSON data
			if e, ok := r.walkJSON(v.Interface(), depth+1); ok {
				out := reflect.New(v.Type()).Elem()
				if e != nil {
					out.Set(reflect.ValueOf(e))
				}
				return out, true
			}
			return v, false
		}
		if e, ok := r.walk(v.Elem(), depth+1); ok {
			if e.Type() == numberType {
				e = reflect.ValueOf(e.String()) // "[redacted]" is no JSON number
			}
			out := reflect.New(v.Type()).Elem()
			if !e.Type().AssignableTo(v.Type()) {
				return out, true // zero: cannot hold the redacted form
			}
			out.Set(e)
			return out, true
		}
	case reflect.Struct:
		return r.walkStruct(v, depth)
	case reflect.Slice:
		if v.IsNil() {
			return v, false
		}
		if v.Type() == rawType {
			return r.walkRaw(v)
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v, false // binary data
		}
		return r.walkElems(v, depth, func() reflect.Value {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			return c
		})
	case reflect.Array:
		return r.walkElems(v, depth, func() reflect.Value {
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			return c
		})
	case reflect.Map:
		if v.Type() == anyMapType {
			if v.IsNil() {
				return v, false
			}
			if m, ok := r.walkJSONMap(v.Interface().(map[string]any), depth); ok {
				return reflect.ValueOf(m), true
			}
			return v, false
		}
		return r.walkMap(v, depth)
	}
	return v, false
}

// walkJSON redacts a JSON-like tree (decoded arguments, tool values, state)
// without reflection, so the common case costs no allocation.
func (r *Redactor) walkJSON(x any, depth int) (any, bool) {
	if depth > maxDepth {
		return nil, true
	}
	switch y := x.(type) {
	case nil, bool, float64, int, int64:
		return x, false
	case string:
		if s := r.String(y); s != y {
			return s, true
		}
		return x, false
	case json.Number:
		if s := r.String(string(y)); s != string(y) {
			return s, true // "[redacted]" is no JSON number
		}
		return x, false
	case map[string]any:
		if m, ok := r.walkJSONMap(y, depth); ok {
			return m, true
		}
		return x, false
	case []any:
		var out []any
		for i, e := range y {
			ne, ok := r.walkJSON(e, depth+1)
			if !ok {
				continue
			}
			if out == nil {
				out = slices.Clone(y)
			}
			out[i] = ne
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	v, ok := r.walk(reflect.ValueOf(x), depth+1)
	if !ok {
		return x, false
	}
	if !v.IsValid() {
		return nil, true
	}
	if v.Type() == numberType {
		return v.String(), true
	}
	return v.Interface(), true
}

// walkJSONMap is walkMap for map[string]any: a first pass finds whether
// anything changes, so an untouched map costs no allocation.
func (r *Redactor) walkJSONMap(m map[string]any, depth int) (map[string]any, bool) {
	changed := false
	for k, e := range m {
		if r.holds(k) {
			changed = true
			break
		}
		if _, ok := r.walkJSON(e, depth+1); ok {
			changed = true
			break
		}
	}
	if !changed {
		return m, false
	}
	out := make(map[string]any, len(m))
	var hidden []string
	for k, e := range m {
		if ne, ok := r.walkJSON(e, depth+1); ok {
			e = ne
		}
		if r.holds(k) {
			hidden = append(hidden, k)
			continue
		}
		out[k] = e
	}
	slices.Sort(hidden) // stable suffixes run to run
	n := 1
	for _, k := range hidden {
		e := m[k]
		if ne, ok := r.walkJSON(e, depth+1); ok {
			e = ne
		}
		n = place(n, func(name string) bool {
			if _, taken := out[name]; taken {
				return false
			}
			out[name] = e
			return true
		})
	}
	return out, true
}

// place offers Marker, then Marker#2, #3… from the n-th name on, until put
// accepts one; it returns the next n to try.
func place(n int, put func(string) bool) int {
	for {
		name := Marker
		if n > 1 {
			name += "#" + strconv.Itoa(n)
		}
		n++
		if put(name) {
			return n
		}
	}
}

func (r *Redactor) walkStruct(v reflect.Value, depth int) (reflect.Value, bool) {
	var out reflect.Value
	t := v.Type()
	for _, i := range r.stringFields(t) {
		e, ok := r.walk(v.Field(i), depth+1)
		if !ok {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// walkElems walks a slice's or array's elements, copying on first change.
func (r *Redactor) walkElems(v reflect.Value, depth int, clone func() reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		e, ok := r.walk(v.Index(i), depth+1)
		if !ok {
			continue
		}
		if !out.IsValid() {
			out = clone()
		}
		out.Index(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// walkMap redacts values, and replaces whole any string key holding a
// secret, suffixing replacements so colliding keys keep every entry.
func (r *Redactor) walkMap(v reflect.Value, depth int) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	stringKeys := v.Type().Key().Kind() == reflect.String
	type kv struct {
		key, val reflect.Value
		hidden   bool // the key holds a secret
	}
	var entries []kv
	changed := false
	for it := v.MapRange(); it.Next(); {
		e := kv{key: it.Key(), val: it.Value()}
		if nv, ok := r.walk(e.val, depth+1); ok {
			e.val, changed = nv, true
		}
		if stringKeys && r.holds(e.key.String()) {
			e.hidden, changed = true, true
		}
		entries = append(entries, e)
	}
	if !changed {
		return v, false
	}
	out := reflect.MakeMapWithSize(v.Type(), len(entries))
	var hidden []kv
	for _, e := range entries {
		if e.hidden {
			hidden = append(hidden, e)
			continue
		}
		out.SetMapIndex(e.key, e.val)
	}
	// Sorted by the original key, so the suffixes are stable run to run.
	slices.SortFunc(hidden, func(a, b kv) int { return strings.Compare(a.key.String(), b.key.String()) })
	n := 1
	for _, e := range hidden {
		n = place(n, func(name string) bool {
			k := reflect.ValueOf(name).Convert(v.Type().Key())
			if out.MapIndex(k).IsValid() {
				return false
			}
			out.SetMapIndex(k, e.val)
			return true
		})
	}
	return out, true
}

// walkRaw redacts a json.RawMessage as the JSON it holds.
func (r *Redactor) walkRaw(v reflect.Value) (reflect.Value, bool) {
	raw := v.Bytes()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		// Not JSON: redact it as text.
		if s := r.String(string(raw)); s != string(raw) {
			return reflect.ValueOf(json.RawMessage(s)), true
		}
		return v, false
	}
	red, ok := r.walk(reflect.ValueOf(&doc).Elem(), 0)
	if !ok {
		return v, false
	}
	b, err := json.Marshal(red.Interface())
	if err != nil {
		return reflect.ValueOf(json.RawMessage(`"` + Marker + `"`)), true
	}
	return reflect.ValueOf(json.RawMessage(b)), true
}

// stringFields lists the exported fields of struct type t that can hold
// data to redact.
func (r *Redactor) stringFields(t reflect.Type) []int {
	if f, ok := r.fields.Load(t); ok {
		return f.([]int)
	}
	var idx []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && mayHold(f.Type, map[reflect.Type]bool{}) {
			idx = append(idx, i)
		}
	}
	r.fields.Store(t, idx)
	return idx
}

// mayHold reports whether a value of type t can contain a string the walk
// rewrites (a recursive type counts as yes).
func mayHold(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String:
		return t == stringType || t == numberType
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Array:
		return mayHold(t.Elem(), seen)
	case reflect.Slice:
		return t == rawType || (t.Elem().Kind() != reflect.Uint8 && mayHold(t.Elem(), seen))
	case reflect.Map:
		return t.Key().Kind() == reflect.String || mayHold(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && mayHold(f.Type, seen) {
				return true
			}
		}
	}
	return false
}
