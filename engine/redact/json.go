package redact

import (
	"reflect"
	"slices"
	"strconv"
)

// walkJSON redacts a JSON-like tree (decoded arguments, tool values, state)
// without reflection, so the common case costs no allocation.
func (r *Redactor) walkJSON(x any, depth int) (any, bool) {
	if depth > maxDepth {
		return nil, true
	}
	switch y := x.(type) {
	case nil, bool:
		return x, false
	case string:
		if s := r.String(y); s != y {
			return s, true
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
	if held, ok := r.holdsNumber(x); ok {
		if held {
			return Marker, true // a string where the number was: "[redacted]" is no number
		}
		return x, false
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
