package world

import (
	"math"
	"unicode/utf8"
)

// The observation a tool returns is usually a map of plain JSON values
// (strings, float64s, booleans, maps, slices) whose keys are exactly the
// Observation's JSON names. decodeDirect reads such a value straight into the
// typed shape, with the result json.Unmarshal would give after encoding it;
// anything else (a key in another case, a null, an int where an int field
// wants a float, a non-finite number, invalid UTF-8, a typed Go value) makes
// it give up, and the caller takes the encode–decode round trip, whose
// errors and coercions are the reference. Either way the Observation knows
// which fields were sent (Observation.Known).
func decodeDirect(v any) (Observation, bool) {
	var obs Observation
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return obs, false
	}
	for k, x := range m {
		switch k {
		case "run_id":
			ok = str(x, &obs.RunID)
		case "clearance":
			var c map[string]float64
			c, ok = floatMap(x)
			obs.Clearance = c
		case "age_s":
			obs.AgeS, ok = floatMap(x)
		case "detections":
			obs.Detections, ok = detections(x)
		case "held":
			ok = str(x, &obs.Held)
		case "pose":
			obs.Pose = &Pose{}
			ok = pose(x, obs.Pose)
		case "images":
			obs.Images, ok = images(x)
		case "state":
			var s any
			s, ok = plain(x)
			if ok {
				obs.State, ok = s.(map[string]any)
			}
		case "summary":
			ok = str(x, &obs.Summary)
		case "joints":
			obs.Joints, ok = floatMap(x)
		case "end_effector":
			obs.EndEffector = &EndEffectorPose{}
			ok = endEffector(x, obs.EndEffector)
		case "gripper":
			obs.Gripper = &Gripper{}
			ok = gripper(x, obs.Gripper)
		case "joint_states":
			obs.JointStates, ok = jointStates(x)
		case "frames":
			obs.Frames, ok = framePoses(x)
		default:
			ok = false
		}
		if !ok {
			return Observation{}, false
		}
		// Sent, even empty: a field left out is unknown, not its zero.
		obs.SetKnown(k)
		if k == "pose" || k == "gripper" || k == "end_effector" {
			obs.SetKnownIn(k) // recorded field by field, even when empty
			fields(x, func(f string, _ any) bool { obs.SetKnownIn(k, f); return true })
		}
	}
	return obs, true
}

// fields calls set for each entry of an object; false when x is not a
// non-nil map or set refuses an entry.
func fields(x any, set func(k string, v any) bool) bool {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return false
	}
	for k, v := range m {
		if !set(k, v) {
			return false
		}
	}
	return true
}

func str(x any, dst *string) bool {
	s, ok := x.(string)
	if !ok || !utf8.ValidString(s) {
		return false
	}
	*dst = s
	return true
}

func num(x any, dst *float64) bool {
	switch n := x.(type) {
	case float64:
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return false
		}
		*dst = n
	case int:
		*dst = float64(n)
	default:
		return false
	}
	return true
}

func boolean(x any, dst *bool) bool {
	b, ok := x.(bool)
	*dst = b
	return ok
}

// whole reads an int field: an int, or a float64 with no fraction small
// enough to be written without an exponent.
func whole(x any, dst *int) bool {
	switch n := x.(type) {
	case int:
		*dst = n
	case float64:
		if n != math.Trunc(n) || math.Abs(n) >= 1e15 {
			return false
		}
		*dst = int(n)
	default:
		return false
	}
	return true
}

func floatMap(x any) (map[string]float64, bool) {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		var f float64
		if !utf8.ValidString(k) || !num(v, &f) {
			return nil, false
		}
		out[k] = f
	}
	return out, true
}

func detections(x any) ([]Detection, bool) {
	l, ok := x.([]any)
	if !ok || l == nil {
		return nil, false
	}
	out := make([]Detection, len(l))
	for i, e := range l {
		d := &out[i]
		if !fields(e, func(k string, v any) bool {
			switch k {
			case "name":
				return str(v, &d.Name)
			case "class":
				return str(v, &d.Class)
			case "camera":
				return str(v, &d.Camera)
			case "relation":
				return str(v, &d.Relation)
			case "target":
				return str(v, &d.Target)
			case "room":
				return str(v, &d.Room)
			case "distance_m":
				return num(v, &d.DistanceM)
			case "visible":
				return boolean(v, &d.Visible)
			case "position":
				d.Position = &Point{}
				return fields(v, func(k string, v any) bool {
					switch k {
					case "x":
						return num(v, &d.Position.X)
					case "y":
						return num(v, &d.Position.Y)
					}
					return false
				})
			case "id":
				return str(v, &d.ID)
			case "frame":
				return str(v, &d.Frame)
			case "score":
				return num(v, &d.Score)
			}
			return false
		}) {
			return nil, false
		}
	}
	return out, true
}

func pose(x any, p *Pose) bool {
	return fields(x, func(k string, v any) bool {
		switch k {
		case "x":
			return num(v, &p.X)
		case "y":
			return num(v, &p.Y)
		case "theta_deg":
			return num(v, &p.ThetaDeg)
		case "room":
			return str(v, &p.Room)
		case "frame":
			return str(v, &p.Frame)
		}
		return false
	})
}

func endEffector(x any, p *EndEffectorPose) bool {
	return fields(x, func(k string, v any) bool {
		switch k {
		case "frame":
			return str(v, &p.Frame)
		case "x":
			return num(v, &p.X)
		case "y":
			return num(v, &p.Y)
		case "z":
			return num(v, &p.Z)
		case "roll_deg":
			return num(v, &p.RollDeg)
		case "pitch_deg":
			return num(v, &p.PitchDeg)
		case "yaw_deg":
			return num(v, &p.YawDeg)
		}
		return false
	})
}

func gripper(x any, g *Gripper) bool {
	return fields(x, func(k string, v any) bool {
		switch k {
		case "opening_m":
			return num(v, &g.OpeningM)
		case "closed":
			return boolean(v, &g.Closed)
		case "force_n":
			return num(v, &g.ForceN)
		}
		return false
	})
}

func images(x any) ([]Image, bool) {
	l, ok := x.([]any)
	if !ok || l == nil {
		return nil, false
	}
	out := make([]Image, len(l))
	for i, e := range l {
		im := &out[i]
		if !fields(e, func(k string, v any) bool {
			switch k {
			case "camera":
				return str(v, &im.Camera)
			case "mime":
				return str(v, &im.MIME)
			case "width":
				return whole(v, &im.Width)
			case "height":
				return whole(v, &im.Height)
			}
			return false
		}) {
			return nil, false
		}
	}
	return out, true
}

// plain copies a JSON value as json.Unmarshal into an any would build it
// (a fresh map or slice, float64 numbers); false for anything else.
func plain(x any) (any, bool) {
	switch v := x.(type) {
	case nil:
		return nil, true
	case string:
		return v, utf8.ValidString(v)
	case bool:
		return v, true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, false
		}
		return v, true
	case int:
		return float64(v), true
	case map[string]any:
		if v == nil {
			return nil, false
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			c, ok := plain(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		if v == nil {
			return nil, false
		}
		out := make([]any, len(v))
		for i, e := range v {
			c, ok := plain(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	return nil, false
}
