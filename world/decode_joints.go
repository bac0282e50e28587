package world

import "unicode/utf8"

// jointStates reads joint_states: {joint: {position, velocity?, effort?}}.
func jointStates(x any) (map[string]JointState, bool) {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]JointState, len(m))
	for name, v := range m {
		var js JointState
		if !utf8.ValidString(name) || !fields(v, func(k string, v any) bool {
			switch k {
			case "position":
				return num(v, &js.Position)
			case "velocity":
				js.Velocity = new(float64)
				return num(v, js.Velocity)
			case "effort":
				js.Effort = new(float64)
				return num(v, js.Effort)
			}
			return false
		}) {
			return nil, false
		}
		if _, ok := v.(map[string]any)["position"]; !ok {
			return nil, false // required: the round trip's error is the reference
		}
		out[name] = js
	}
	return out, true
}

// framePoses reads frames: {name: end_effector-shaped pose}.
func framePoses(x any) (map[string]EndEffectorPose, bool) {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := make(map[string]EndEffectorPose, len(m))
	for name, v := range m {
		var p EndEffectorPose
		if !utf8.ValidString(name) || !endEffector(v, &p) {
			return nil, false
		}
		out[name] = p
	}
	return out, true
}
