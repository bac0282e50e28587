package stages

import (
	"encoding/json"
	"strings"

	"github.com/thea-harness/thea/internal/quantity"
)

// The documented Observation fields as words: a pose, the detections, the
// image descriptions (see observation_text.go for the rest).

// writePose writes {x, y, theta_deg, room, …} as "(x, y) facing θ°, room
// R, …"; false (nothing written) when x or y is not a number.
func writePose(b *strings.Builder, m map[string]any) bool {
	x, okx := number(m["x"])
	y, oky := number(m["y"])
	if !okx || !oky {
		return false
	}
	writePoint(b, x, y)
	if th, ok := number(m["theta_deg"]); ok {
		b.WriteString(" facing ")
		var buf [32]byte
		b.Write(quantity.AppendDegrees(buf[:0], th))
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
					b.WriteString(", at ")
					writePoint(b, x, y)
					skip = append(skip, "position")
				}
			}
		}
		if dist, ok := number(d["distance_m"]); ok {
			b.WriteString(", ")
			writeMetres(b, dist)
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

// writePoint and writeMetres write positions and distances as the Scene
// Graph Brief does (one formatter: the same fact reads the same in both).
func writePoint(b *strings.Builder, x, y float64) {
	var buf [64]byte
	b.Write(quantity.AppendPoint(buf[:0], x, y))
}

func writeMetres(b *strings.Builder, m float64) {
	var buf [32]byte
	b.Write(quantity.AppendMetres(buf[:0], m))
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
