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
// not of its documented shape, is written generically. One field a line is
// also what lets the context store state only the fields that changed since
// the model last saw them (engine/refreshed.go).

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
			writeMap(b, m)
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

// writePose writes {x, y, theta_deg, room, …} as "(x, y) facing θ°, room
// R, …"; false (nothing written) when x or y is not a number.
func writePose(b *strings.Builder, m map[string]any) bool {
	x, okx := number(m["x"])
	y, oky := number(m["y"])
	if !okx || !oky {
		return false
	}
	b.WriteByte('(')
	writeNumber(b, x)
	b.WriteString(", ")
	writeNumber(b, y)
	b.WriteByte(')')
	if th, ok := number(m["theta_deg"]); ok {
		b.WriteString(" facing ")
		writeNumber(b, th)
		b.WriteString("°")
	}
	if r, ok := m["room"].(string); ok && r != "" {
		b.WriteString(", room " + r)
	}
	writeRest(b, m, "x", "y", "theta_deg", "room")
	return true
}

// writeDetections writes each detection as "name (class) relation target,
// room R, at (x, y), d m" and the cameras that saw it; detections that
// differ only in their camera are one. False (nothing written) when an
// entry is not an object with a name.
func writeDetections(b *strings.Builder, l []any) bool {
	type seen struct {
		d       map[string]any
		cameras []string
	}
	var groups []seen
	for _, e := range l {
		d, ok := e.(map[string]any)
		if _, named := d["name"].(string); !ok || !named {
			return false
		}
		cam, _ := d["camera"].(string)
		found := false
		for i := range groups {
			if sameExceptCamera(groups[i].d, d) {
				if cam != "" {
					groups[i].cameras = append(groups[i].cameras, cam)
				}
				found = true
				break
			}
		}
		if !found {
			var cams []string
			if cam != "" {
				cams = []string{cam}
			}
			groups = append(groups, seen{d: d, cameras: cams})
		}
	}
	if len(groups) == 0 {
		b.WriteString("none")
		return true
	}
	for i, g := range groups {
		if i > 0 {
			b.WriteString("; ")
		}
		d := g.d
		name := d["name"].(string)
		b.WriteString(name)
		if c, ok := d["class"].(string); ok && c != "" && c != name {
			b.WriteString(" (" + c + ")")
		}
		rel, _ := d["relation"].(string)
		tgt, _ := d["target"].(string)
		if rel != "" || tgt != "" {
			b.WriteString(" " + strings.TrimSpace(rel+" "+tgt))
		}
		if r, ok := d["room"].(string); ok && r != "" {
			b.WriteString(", room " + r)
		}
		skip := []string{"name", "class", "relation", "target", "room", "camera", "visible", "distance_m"}
		if p, ok := d["position"].(map[string]any); ok {
			if x, okx := number(p["x"]); okx {
				if y, oky := number(p["y"]); oky && len(p) == 2 {
					b.WriteString(", at (")
					writeNumber(b, x)
					b.WriteString(", ")
					writeNumber(b, y)
					b.WriteByte(')')
					skip = append(skip, "position")
				}
			}
		}
		if dist, ok := number(d["distance_m"]); ok {
			b.WriteString(", ")
			writeNumber(b, dist)
			b.WriteString(" m away")
		} else if v, ok := d["distance_m"]; ok {
			b.WriteString(", distance_m ")
			writeValue(b, v, true)
		}
		switch vis := d["visible"].(type) {
		case bool:
			if !vis {
				b.WriteString(", not visible")
			}
		case nil:
		default:
			b.WriteString(", visible ")
			writeValue(b, vis, true)
		}
		if len(g.cameras) > 0 {
			b.WriteString(", seen by " + strings.Join(g.cameras, "+"))
		}
		writeRest(b, d, skip...)
	}
	return true
}

func sameExceptCamera(a, b map[string]any) bool {
	n := 0
	for k, v := range a {
		if k == "camera" {
			continue
		}
		w, ok := b[k]
		if !ok || !sameValue(v, w) {
			return false
		}
		n++
	}
	m := len(b)
	if _, ok := b["camera"]; ok {
		m--
	}
	return n == m
}

// sameValue compares two decoded JSON values.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if w, ok := bm[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], bl[i]) {
				return false
			}
		}
		return true
	case string, bool, nil, float64:
		return a == b
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// writeImages writes image descriptions as "camera WxH mime"; false
// (nothing written) when an entry is not an object.
func writeImages(b *strings.Builder, l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	for i, e := range l {
		m := e.(map[string]any)
		if i > 0 {
			b.WriteString(", ")
		}
		cam, _ := m["camera"].(string)
		if cam == "" {
			cam = "image"
		}
		b.WriteString(cam)
		w, okw := number(m["width"])
		h, okh := number(m["height"])
		skip := []string{"camera"}
		if okw && okh {
			b.WriteByte(' ')
			writeNumber(b, w)
			b.WriteByte('x')
			writeNumber(b, h)
			skip = append(skip, "width", "height")
		}
		if mime, ok := m["mime"].(string); ok && mime != "" {
			b.WriteString(" " + mime)
			skip = append(skip, "mime")
		}
		writeRest(b, m, skip...)
	}
	return true
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
