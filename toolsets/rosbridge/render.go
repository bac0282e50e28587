package rosbridge

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Text the model reads built from a robot's values (the observation's
// summary, a reason read from a result) renders lists and maps as
// readable text with their keys in order — "class: mug, score: 0.93" —
// never Go's map[...] or [a b].

// maxRendered bounds one rendered value; the rest is cut with "…".
const maxRendered = 400

// renderValue is v as readable text: a map at the top as "k: v, k: v", a
// nested one in braces, a list in brackets, numbers as written.
func renderValue(v any) string {
	var b strings.Builder
	renderInto(&b, v, true)
	s := b.String()
	if len(s) > maxRendered {
		cut := maxRendered
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

func renderInto(b *strings.Builder, v any, top bool) {
	if b.Len() > maxRendered {
		return // what follows is cut anyway
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(renderString(x, top))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case float64:
		b.WriteString(renderFloat(x))
	case float32:
		b.WriteString(renderFloat(float64(x)))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		fmt.Fprint(b, x)
	case map[string]any:
		renderMap(b, x, top)
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = e
		}
		renderMap(b, m, top)
	case []any:
		renderList(b, len(x), func(i int) any { return x[i] })
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			renderList(b, rv.Len(), func(i int) any { return rv.Index(i).Interface() })
		case reflect.Map:
			m := make(map[string]any, rv.Len())
			for it := rv.MapRange(); it.Next(); {
				m[fmt.Sprint(it.Key().Interface())] = it.Value().Interface()
			}
			renderMap(b, m, top)
		default:
			fmt.Fprint(b, v)
		}
	}
}

func renderMap(b *strings.Builder, m map[string]any, top bool) {
	if !top {
		b.WriteByte('{')
	}
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(renderString(k, false))
		b.WriteString(": ")
		renderInto(b, m[k], false)
	}
	if !top {
		b.WriteByte('}')
	}
}

func renderList(b *strings.Builder, n int, at func(int) any) {
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		renderInto(b, at(i), false)
	}
	b.WriteByte(']')
}

// renderString is s bare, or quoted when it would read as structure (a
// separator inside a map or list, or nothing at all).
func renderString(s string, top bool) string {
	if top && s != "" {
		return s
	}
	if s == "" || strings.ContainsAny(s, ",:{}[]\"\n") || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return s
}

// renderFloat writes a number as a person would: 0.93, 12, 1e-09.
func renderFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e15) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
