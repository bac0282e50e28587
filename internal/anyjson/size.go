package anyjson

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// Size is len(json.Marshal(v)) (0 when v does not encode), counted without
// building the encoding for the generic values.
func Size(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case string:
		return StringSize(x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0
		}
		var buf [32]byte
		return len(appendFloat(buf[:0], x))
	case int:
		var buf [24]byte
		return len(strconv.AppendInt(buf[:0], int64(x), 10))
	case int64:
		var buf [24]byte
		return len(strconv.AppendInt(buf[:0], x, 10))
	case map[string]any:
		if x == nil {
			return 4
		}
		n := 2 + max(len(x)-1, 0) // braces, commas
		for k, e := range x {
			s := Size(e)
			if s == 0 {
				return 0
			}
			n += StringSize(k) + 1 + s
		}
		return n
	case []any:
		if x == nil {
			return 4
		}
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			s := Size(e)
			if s == 0 {
				return 0
			}
			n += s
		}
		return n
	case []string:
		if x == nil {
			return 4
		}
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			n += StringSize(e)
		}
		return n
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// StringSize is the length of AppendString(nil, s).
func StringSize(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case safe(c):
				n++
			case c == '\\' || c == '"' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			default:
				n += 6
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
