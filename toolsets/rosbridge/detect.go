package rosbridge

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
)

type wireFloat = wire.Float

// maxDetections bounds one detector's detections in an observation (the
// highest scoring are kept); maxClassLen bounds a class name, in runes.
const (
	maxDetections = 100
	maxClassLen   = 128
)

// found is one detection as read, before the frame transform.
type found struct {
	det   world.Detection
	pos   *perception.Vec3
	frame string
}

// detect reads one detector's latest message as detections: by its value
// expr, or as a vision_msgs array; each position is given in the declared
// frame through TF, or kept in its own frame, which the detection says.
func (p *plan) detect(name string, g gathered) ([]world.Detection, error) {
	d := p.cfg.Observation.Detections[name]
	raw := g.msgs[d.Topic].Data
	var items []found
	var err error
	if prog := p.detections[name]; prog != nil {
		var msg any
		if err := json.Unmarshal(raw, &msg); err != nil {
			return nil, err
		}
		val, err := run(prog, "msg", msg)
		if err != nil {
			return nil, err
		}
		items, err = detectionsOf(val)
		if err != nil {
			return nil, err
		}
	} else if items, err = decodeVision(raw, d.Type == typeDetection3DArray); err != nil {
		return nil, err
	}
	kept := items[:0]
	for _, it := range items {
		if it.det.Score >= d.MinScore {
			kept = append(kept, it)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].det.Score > kept[j].det.Score })
	if len(kept) > maxDetections {
		kept = kept[:maxDetections]
	}
	out := make([]world.Detection, 0, len(kept))
	for _, it := range kept {
		det := it.det
		det.Visible, det.Camera = true, d.Camera
		if it.pos != nil {
			pos, frame := *it.pos, it.frame
			if d.Frame != "" && perception.FrameName(d.Frame) != frame {
				tr, _, _, err := g.tree.Lookup(d.Frame, frame)
				if err != nil {
					return nil, fmt.Errorf("%s's position: %w", det.Name, err)
				}
				pos, frame = tr.Apply(pos), perception.FrameName(d.Frame)
			}
			det.Position = &world.Point{X: round3(pos.X), Y: round3(pos.Y)}
			if d.Frame == "" {
				det.Frame = frame
			}
		}
		out = append(out, det)
	}
	return out, nil
}

type visionPoint struct{ X, Y, Z wireFloat }

// visionArray is a vision_msgs/msg/Detection3DArray or Detection2DArray
// (ROS 2 Humble and later), the fields read.
type visionArray struct {
	Header struct {
		FrameID string `json:"frame_id"`
	} `json:"header"`
	Detections []struct {
		Header struct {
			FrameID string `json:"frame_id"`
		} `json:"header"`
		Results []struct {
			Hypothesis struct {
				ClassID string    `json:"class_id"`
				Score   wireFloat `json:"score"`
			} `json:"hypothesis"`
			Pose struct {
				Pose struct {
					Position visionPoint `json:"position"`
				} `json:"pose"`
			} `json:"pose"`
		} `json:"results"`
		BBox struct {
			Center struct {
				Position visionPoint `json:"position"`
			} `json:"center"`
		} `json:"bbox"`
		ID string `json:"id"`
	} `json:"detections"`
}

// decodeVision reads a vision_msgs detection array from an untrusted
// graph. Each detection's class is its best hypothesis's class_id (one
// without any is left out); a 3D detection's position is its box centre,
// a 2D one's (whose box is in pixels) its hypothesis pose when the
// detector filled it; the frame is the detection's header.frame_id, else
// the array's.
func decodeVision(raw json.RawMessage, is3D bool) ([]found, error) {
	var m visionArray
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("not a vision_msgs detection array: %w", err)
	}
	out := make([]found, 0, len(m.Detections))
	for _, d := range m.Detections {
		best := -1
		for i, r := range d.Results {
			if r.Hypothesis.ClassID != "" && (best < 0 || r.Hypothesis.Score.V > d.Results[best].Hypothesis.Score.V) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		h := d.Results[best]
		class := clip(h.Hypothesis.ClassID)
		f := found{det: world.Detection{Name: class, Class: class, ID: clip(d.ID)}, frame: perception.FrameName(d.Header.FrameID)}
		if f.frame == "" {
			f.frame = perception.FrameName(m.Header.FrameID)
		}
		if h.Hypothesis.Score.Valid {
			f.det.Score = round3(h.Hypothesis.Score.V)
		}
		pt := h.Pose.Pose.Position
		if is3D {
			pt = d.BBox.Center.Position
		}
		if pt.X.Valid && pt.Y.Valid && (is3D || pt.X.V != 0 || pt.Y.V != 0 || pt.Z.V != 0) {
			f.pos = &perception.Vec3{X: pt.X.V, Y: pt.Y.V, Z: pt.Z.V}
		}
		out = append(out, f)
	}
	return out, nil
}

// clip cuts an untrusted name to maxClassLen runes, and invalid UTF-8 to
// what is valid.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "�")
	if utf8.RuneCountInString(s) > maxClassLen {
		s = string([]rune(s)[:maxClassLen]) + "…"
	}
	return s
}

// detectionsOf reads a value expr's list: each {name, class?, score?, id?,
// position?: {x, y, z?}, frame?}.
func detectionsOf(val any) ([]found, error) {
	list, ok := val.([]any)
	if !ok {
		return nil, fmt.Errorf("the value is a %T, not a list of detections", val)
	}
	out := make([]found, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("item %d is a %T, not {name, class?, score?, id?, position?, frame?}", i, e)
		}
		var f found
		var err error
		str := func(k string, dst *string, required bool) {
			v, ok := m[k]
			if !ok || v == nil {
				if required && err == nil {
					err = fmt.Errorf("item %d has no %s", i, k)
				}
				return
			}
			s, ok := v.(string)
			if !ok && err == nil {
				err = fmt.Errorf("item %d: %s is a %T, not a string", i, k, v)
			}
			*dst = clip(s)
		}
		str("name", &f.det.Name, true)
		str("class", &f.det.Class, false)
		str("id", &f.det.ID, false)
		str("frame", &f.frame, false)
		if err == nil && f.det.Name == "" {
			err = fmt.Errorf("item %d: name is empty", i)
		}
		if err != nil {
			return nil, err
		}
		if s, ok := number(m["score"]); ok {
			f.det.Score = round3(s)
		}
		if pm, ok := m["position"].(map[string]any); ok {
			x, okx := number(pm["x"])
			y, oky := number(pm["y"])
			z, _ := number(pm["z"])
			if !okx || !oky {
				return nil, fmt.Errorf("item %d: position needs numbers x and y", i)
			}
			f.pos = &perception.Vec3{X: x, Y: y, Z: z}
		}
		f.frame = perception.FrameName(f.frame)
		out = append(out, f)
	}
	return out, nil
}

// number reads a finite number of any Go numeric type an expr gives.
func number(v any) (float64, bool) { return rules.FiniteNumber(v) }
