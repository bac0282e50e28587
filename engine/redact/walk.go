package redact

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

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
		if v.Type() == numberType {
			// A number is redacted whole; "[redacted]" is then no valid
			// json.Number, so encoding it fails rather than leaks it.
			if r.holdsNumberLiteral(s) {
				return reflect.ValueOf(json.Number(Marker)), true
			}
			return v, false
		}
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

func (r *Redactor) walkStruct(v reflect.Value, depth int) (reflect.Value, bool) {
	var out reflect.Value
	t := v.Type()
	for _, f := range r.stringFields(t) {
		var e reflect.Value
		var ok bool
		if f.json {
			e, ok = r.walkJSONText(v.Field(f.index))
		} else {
			e, ok = r.walk(v.Field(f.index), depth+1)
		}
		if !ok {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(f.index).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// walkJSONText redacts a string field tagged `redact:"json"`: JSON text
// held as a string (see JSONText).
func (r *Redactor) walkJSONText(v reflect.Value) (reflect.Value, bool) {
	s := v.String()
	if t := r.JSONText(s); t != s {
		return reflect.ValueOf(t).Convert(v.Type()), true
	}
	return v, false
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

// walkRaw redacts a json.RawMessage as the JSON it holds (see rawJSON).
func (r *Redactor) walkRaw(v reflect.Value) (reflect.Value, bool) {
	out, ok := r.rawJSON(v.Bytes())
	if !ok {
		return v, false
	}
	return reflect.ValueOf(json.RawMessage(out)).Convert(v.Type()), true
}

// field is an exported struct field that can hold data to redact; json
// marks a string field tagged `redact:"json"`, which holds JSON text.
type field struct {
	index int
	json  bool
}

// stringFields lists the exported fields of struct type t that can hold
// data to redact.
func (r *Redactor) stringFields(t reflect.Type) []field {
	if f, ok := r.fields.Load(t); ok {
		return f.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || !mayHold(f.Type, map[reflect.Type]bool{}) {
			continue
		}
		fs = append(fs, field{index: i, json: f.Tag.Get("redact") == "json" && f.Type.Kind() == reflect.String})
	}
	r.fields.Store(t, fs)
	return fs
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
