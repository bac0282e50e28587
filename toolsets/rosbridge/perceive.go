package rosbridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/world"
)

// perceive adds the perception fields to an assembled observation v: the
// pose, detections, held, joints, the end effector and frames, from what
// gather read. A source that cannot be read fails the observation with
// its name; none is ever filled with a default.
func (p *plan) perceive(v map[string]any, g gathered) error {
	o := p.cfg.Observation
	var head, tail []string
	if o.Pose != nil {
		pose, err := p.basePose(*o.Pose, g)
		if err != nil {
			return fmt.Errorf("pose: %w", err)
		}
		v["pose"] = pose
		head = append(head, fmt.Sprintf("at (%.2f, %.2f) heading %.0f°%s", pose.X, pose.Y, pose.ThetaDeg, inFrame(pose.Frame)))
	}
	if len(o.Detections) > 0 {
		dets := []world.Detection{}
		for _, k := range slices.Sorted(maps.Keys(o.Detections)) {
			d, err := p.detect(k, g)
			if err != nil {
				return fmt.Errorf("detections.%s from %s: %w", k, o.Detections[k].Topic, err)
			}
			dets = append(dets, d...)
		}
		v["detections"] = dets
		tail = append(tail, seen(dets))
	}
	if h := o.Held; h != nil {
		held, known, err := p.heldValue(g)
		if err != nil {
			return fmt.Errorf("held from %s: %w", h.Topic, err)
		}
		if known {
			v["held"] = held
			tail = append(tail, "holding "+orNothing(held))
		}
	}
	if j := o.Joints; j != nil {
		joints, states, err := jointState(g.msgs[j.Topic].Data)
		if err != nil {
			return fmt.Errorf("joints from %s: %w", j.Topic, err)
		}
		v["joints"], v["joint_states"] = joints, states
	}
	if e := o.EndEffector; e != nil {
		pose, err := p.framePose(*e, g)
		if err != nil {
			return fmt.Errorf("end_effector: %w", err)
		}
		v["end_effector"] = pose
		tail = append(tail, fmt.Sprintf("tool at (%.2f, %.2f, %.2f) in %s", pose.X, pose.Y, pose.Z, pose.Frame))
	}
	if len(o.Frames) > 0 {
		frames := map[string]world.EndEffectorPose{}
		for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
			pose, err := p.framePose(o.Frames[k], g)
			if err != nil {
				return fmt.Errorf("frames.%s: %w", k, err)
			}
			frames[k] = pose
		}
		v["frames"] = frames
	}
	if s, _ := v["summary"].(string); s != "" {
		head = append(head, s)
	}
	v["summary"] = strings.Join(append(head, tail...), "; ")
	return nil
}

func inFrame(f string) string {
	if f == "" {
		return ""
	}
	return " in " + f
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// seen says in words what the detectors saw.
func seen(dets []world.Detection) string {
	if len(dets) == 0 {
		return "no detections"
	}
	names := make([]string, 0, len(dets))
	for _, d := range dets {
		names = append(names, d.Name)
	}
	return "seeing " + strings.Join(names, ", ")
}

// heldValue runs held's expr: a string, or null for unknown (known false).
func (p *plan) heldValue(g gathered) (held string, known bool, err error) {
	var msg any
	if err := json.Unmarshal(g.msgs[p.cfg.Observation.Held.Topic].Data, &msg); err != nil {
		return "", false, err
	}
	val, err := run(p.held, "msg", msg)
	if err != nil {
		return "", false, err
	}
	switch x := val.(type) {
	case nil:
		return "", false, nil
	case string:
		return x, true, nil
	}
	return "", false, fmt.Errorf("the value is a %T, not the held object's name (a string, \"\" for nothing) or null (unknown)", val)
}

// basePose is the pose from its topic (Odometry, PoseStamped) or TF, with
// its frame.
func (p *plan) basePose(d PoseDecl, g gathered) (world.Pose, error) {
	pose, err := p.framePose(d, g)
	if err != nil {
		return world.Pose{}, err
	}
	return world.Pose{X: pose.X, Y: pose.Y, ThetaDeg: pose.YawDeg, Frame: pose.Frame}, nil
}

// framePose is a pose from its topic or a TF lookup, in its frame.
func (p *plan) framePose(d PoseDecl, g gathered) (world.EndEffectorPose, error) {
	if d.TF != nil {
		tr, _, _, err := g.tree.Lookup(d.TF.Parent, d.TF.Child)
		if err != nil {
			return world.EndEffectorPose{}, err
		}
		return poseOf(tr, perception.FrameName(d.TF.Parent))
	}
	var m struct {
		Header struct {
			FrameID string `json:"frame_id"`
		} `json:"header"`
		Pose struct {
			Position    struct{ X, Y, Z wireFloat }    `json:"position"`
			Orientation struct{ X, Y, Z, W wireFloat } `json:"orientation"`
			// Odometry nests the pose once more (PoseWithCovariance).
			Pose *struct {
				Position    struct{ X, Y, Z wireFloat }    `json:"position"`
				Orientation struct{ X, Y, Z, W wireFloat } `json:"orientation"`
			} `json:"pose"`
		} `json:"pose"`
	}
	raw := g.msgs[d.Topic].Data
	if err := json.Unmarshal(raw, &m); err != nil {
		return world.EndEffectorPose{}, fmt.Errorf("from %s: %w", d.Topic, err)
	}
	pos, rot := m.Pose.Position, m.Pose.Orientation
	if m.Pose.Pose != nil {
		pos, rot = m.Pose.Pose.Position, m.Pose.Pose.Orientation
	}
	if !pos.X.Valid || !pos.Y.Valid || !rot.Z.Valid || !rot.W.Valid {
		return world.EndEffectorPose{}, fmt.Errorf("from %s: the position or orientation is null (NaN or inf) or missing", d.Topic)
	}
	q, ok := perception.Quat{X: rot.X.V, Y: rot.Y.V, Z: rot.Z.V, W: rot.W.V}.Normalized()
	if !ok {
		return world.EndEffectorPose{}, fmt.Errorf("from %s: the orientation is a zero quaternion", d.Topic)
	}
	pose, err := poseOf(perception.Transform{T: perception.Vec3{X: pos.X.V, Y: pos.Y.V, Z: pos.Z.V}, R: q}, perception.FrameName(m.Header.FrameID))
	if err != nil {
		return pose, fmt.Errorf("from %s: %w", d.Topic, err)
	}
	return pose, nil
}

// poseOf is a transform as the contract's pose: metres and degrees,
// rounded to a millimetre and a thousandth of a degree.
func poseOf(tr perception.Transform, frame string) (world.EndEffectorPose, error) {
	r, pi, y := tr.R.RPYDeg()
	out := world.EndEffectorPose{Frame: frame, X: round3(tr.T.X), Y: round3(tr.T.Y), Z: round3(tr.T.Z),
		RollDeg: round3(r), PitchDeg: round3(pi), YawDeg: round3(y)}
	for _, f := range []float64{out.X, out.Y, out.Z, out.RollDeg, out.PitchDeg, out.YawDeg} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return out, fmt.Errorf("the pose of %s is not finite", frame)
		}
	}
	return out, nil
}

// jointState reads a sensor_msgs/msg/JointState: parallel name, position,
// velocity and effort arrays (velocity and effort may be empty: not
// measured). A joint whose position is null is left out (unknown).
func jointState(raw json.RawMessage) (map[string]float64, map[string]world.JointState, error) {
	var m struct {
		Name     []string    `json:"name"`
		Position []wireFloat `json:"position"`
		Velocity []wireFloat `json:"velocity"`
		Effort   []wireFloat `json:"effort"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	n := len(m.Name)
	for _, a := range []struct {
		name string
		l    int
	}{{"position", len(m.Position)}, {"velocity", len(m.Velocity)}, {"effort", len(m.Effort)}} {
		if a.l != n && (a.l != 0 || a.name == "position") {
			return nil, nil, fmt.Errorf("%d names but %d in %s (the arrays are parallel)", n, a.l, a.name)
		}
	}
	joints := make(map[string]float64, n)
	states := make(map[string]world.JointState, n)
	for i, name := range m.Name {
		if name == "" || !m.Position[i].Valid {
			continue
		}
		js := world.JointState{Position: m.Position[i].V}
		if len(m.Velocity) == n && m.Velocity[i].Valid {
			js.Velocity = &m.Velocity[i].V
		}
		if len(m.Effort) == n && m.Effort[i].Valid {
			js.Effort = &m.Effort[i].V
		}
		joints[name], states[name] = js.Position, js
	}
	return joints, states, nil
}
