package stages

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The observation as the model reads it: one line per field, "key: value",
// with no JSON punctuation to pay for. The documented fields read as words
// (a pose as "(x, y) facing θ°", each detection as one phrase, the same
// object seen by two cameras once); any other field, and any field that is
// not of its documented shape, is written generically.

// fieldOrder puts the back-end's own one-line summary first, then the
// documented fields; other fields follow in name order.
var fieldOrder = []string{"summary", "pose", "held", "clearance", "detections", "state",
	"joints", "end_effector", "gripper", "images", "run_id"}

// observationText renders an observation value as one line per field.
// With robotInBrief the Scene Graph Brief of the same turn states the
// robot's pose and what it holds (its robot line is made of them): those
// two fields are left out when they have only the documented parts.
func observationText(v map[string]any, robotInBrief bool) string {
	var b strings.Builder
	writeObservation(&b, v, robotInBrief)
	return b.String()
}

// writeObservation writes observationText to b.
func writeObservation(b *strings.Builder, v map[string]any, robotInBrief bool) {
	var buf [16]string
	keys := buf[:0]
	for _, k := range fieldOrder {
		if _, ok := v[k]; ok && !(robotInBrief && statedByBrief(k, v[k])) {
			keys = append(keys, k)
		}
	}
	n := len(keys)
	for k := range v {
		if !slices.Contains(fieldOrder, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys[n:])
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fieldName(k))
		b.WriteString(": ")
		writeField(b, k, v[k])
	}
}

// fieldName is a field's name as its line starts: quoted when it could be
// read as something else (empty, a leading space, a line break, ": ").
func fieldName(k string) string {
	if k == "" || k[0] == ' ' || strings.ContainsAny(k, "\n\r") || strings.Contains(k, ": ") || k[0] == '"' {
		return strconv.Quote(k)
	}
	return k
}

// statedByBrief reports whether the Brief's robot line says all of a
// field: a pose of x, y, theta_deg and room, or the held object's name.
func statedByBrief(key string, v any) bool {
	switch key {
	case "held":
		_, ok := v.(string)
		return ok
	case "pose":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, x := range m {
			switch k {
			case "x", "y", "theta_deg":
				if _, ok := number(x); !ok {
					return false
				}
			case "room":
				if _, ok := x.(string); !ok {
					return false
				}
			default:
				return false
			}
		}
		_, hasX := m["x"]
		_, hasY := m["y"]
		return hasX && hasY
	}
	return false
}

func writeField(b *strings.Builder, key string, v any) {
	switch key {
	case "clearance":
		if m, ok := v.(map[string]any); ok && allNumbers(m) {
			// Metres, by sector.
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k + " ")
				f, _ := number(m[k])
				writeMetres(b, f)
			}
			b.WriteString(" (m)")
			return
		}
	case "pose":
		if m, ok := v.(map[string]any); ok && writePose(b, m) {
			return
		}
	case "held":
		if s, ok := v.(string); ok && s == "" {
			b.WriteString("nothing")
			return
		}
	case "detections":
		if l, ok := v.([]any); ok && writeDetections(b, l) {
			return
		}
	case "images":
		if l, ok := v.([]any); ok && writeImages(b, l) {
			return
		}
	}
	writeValue(b, v, false)
}

// writeRest writes the fields of m not named in skip, as ", k v".
func writeRest(b *strings.Builder, m map[string]any, skip ...string) {
	var rest []string
	for k := range m {
		if !slices.Contains(skip, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		b.WriteString(", " + k + " ")
		writeValue(b, m[k], true)
	}
}

// writeMap writes an object as "k v, k v" in key order.
func writeMap(b *strings.Builder, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte(' ')
		writeValue(b, m[k], true)
	}
}

// writeValue writes any value compactly: objects as "k v, k v" (in
// parentheses when nested), lists as "a, b" (in brackets when nested),
// strings as they are (a new line continues indented).
func writeValue(b *strings.Builder, v any, nested bool) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		switch {
		case v == "":
			b.WriteString(`""`)
		case nested && strings.ContainsAny(v, ",;()[]"):
			b.WriteString(strconv.Quote(v))
		default:
			b.WriteString(strings.ReplaceAll(v, "\n", "\n  "))
		}
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		if nested {
			b.WriteByte('(')
		}
		writeMap(b, v)
		if nested {
			b.WriteByte(')')
		}
	case []any:
		if nested || len(v) == 0 {
			b.WriteByte('[')
		}
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, true)
		}
		if nested || len(v) == 0 {
			b.WriteByte(']')
		}
	default:
		if f, ok := number(v); ok {
			writeNumber(b, f)
			return
		}
		// A builtin tool's own Go value: its JSON, compact.
		j, err := json.Marshal(v)
		if err != nil {
			b.WriteString("(unreadable: " + err.Error() + ")")
			return
		}
		var generic any
		if json.Unmarshal(j, &generic) == nil {
			writeValue(b, generic, nested)
			return
		}
		b.Write(j)
	}
}

func allNumbers(m map[string]any) bool {
	for _, v := range m {
		if _, ok := number(v); !ok {
			return false
		}
	}
	return len(m) > 0
}

// number reads a JSON number, or a Go number a builtin tool put in its
// value.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint64:
		return float64(n), true
	case uint32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// writeNumber writes f as encoding/json does: the shortest form, without
// an exponent for ordinary magnitudes.
func writeNumber(b *strings.Builder, f float64) {
	var buf [32]byte
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b.Write(strconv.AppendFloat(buf[:0], f, format, -1, 64))
}
