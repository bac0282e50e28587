package world

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A field a back-end did not send is unknown, never its zero value: an
// observation without held says nothing about the gripper, one with
// "held": "" says it holds nothing. A field with a non-zero value is known;
// a zero one (an empty string, map or list) is known only when it was sent
// (decoded from JSON where its key was present and not null, or marked
// with SetKnown by the Go code that built it).

// The Observation fields by their JSON names.
const (
	FieldRunID       = "run_id"
	FieldClearance   = "clearance"
	FieldAgeS        = "age_s"
	FieldDetections  = "detections"
	FieldHeld        = "held"
	FieldPose        = "pose"
	FieldImages      = "images"
	FieldState       = "state"
	FieldSummary     = "summary"
	FieldJoints      = "joints"
	FieldEndEffector = "end_effector"
	FieldGripper     = "gripper"
	FieldJointStates = "joint_states"
	FieldFrames      = "frames"
)

// observationFields is the one list of the Observation's fields: Decode,
// Known, Field and the body layer's "is this an observation" all read it
// (a test holds it to the struct's json tags).
var observationFields = [...]string{FieldRunID, FieldClearance, FieldAgeS, FieldDetections, FieldHeld, FieldPose,
	FieldImages, FieldState, FieldSummary, FieldJoints, FieldEndEffector, FieldGripper, FieldJointStates, FieldFrames}

// Fields returns the Observation's fields by their JSON names, in the
// struct's order.
func Fields() []string { return append([]string(nil), observationFields[:]...) }

// fieldBit is the bit of a field in Observation.sent; 0 for a name that is
// not an Observation field.
func fieldBit(name string) uint16 {
	for i, f := range observationFields {
		if f == name {
			return 1 << i
		}
	}
	return 0
}

// SetKnown marks fields (JSON names) as sent, whatever their values: a
// back-end built in Go says "held nothing" by marking an empty held.
func (o *Observation) SetKnown(fields ...string) {
	for _, f := range fields {
		o.sent |= fieldBit(f)
	}
}

// Known reports whether the back-end sent the field (a JSON name): its
// value is not zero, or it was sent as zero.
func (o *Observation) Known(field string) bool {
	if o.sent&fieldBit(field) != 0 {
		return true
	}
	switch field {
	case FieldRunID:
		return o.RunID != ""
	case FieldClearance:
		return len(o.Clearance) > 0
	case FieldAgeS:
		return len(o.AgeS) > 0
	case FieldDetections:
		return len(o.Detections) > 0
	case FieldHeld:
		return o.Held != ""
	case FieldPose:
		return o.Pose != nil
	case FieldImages:
		return len(o.Images) > 0
	case FieldState:
		return len(o.State) > 0
	case FieldSummary:
		return o.Summary != ""
	case FieldJoints:
		return len(o.Joints) > 0
	case FieldEndEffector:
		return o.EndEffector != nil
	case FieldGripper:
		return o.Gripper != nil
	case FieldJointStates:
		return len(o.JointStates) > 0
	case FieldFrames:
		return len(o.Frames) > 0
	}
	return false
}

// plainObservation is Observation without its JSON methods.
type plainObservation Observation

// UnmarshalJSON decodes an Observation and records which fields were sent
// (a key present with a value other than null).
func (o *Observation) UnmarshalJSON(b []byte) error {
	var p plainObservation
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	*o = Observation(p)
	o.sent = 0
	for k, v := range keys {
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			// encoding/json matches keys without regard to case.
			o.sent |= fieldBit(strings.ToLower(k))
		}
	}
	o.sentIn = 0
	o.recordNested(keys)
	return nil
}

// MarshalJSON encodes an Observation with its fields' omitempty, and the
// fields sent empty (held "", detections []) written out: the run log keeps
// "holding nothing" apart from "not reported".
func (o Observation) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(plainObservation(o))
	if err != nil || o.sent == 0 {
		return b, err
	}
	var extra []byte
	add := func(field, empty string, zero bool) {
		if zero && o.sent&fieldBit(field) != 0 {
			extra = append(extra, ',', '"')
			extra = append(extra, field...)
			extra = append(extra, '"', ':')
			extra = append(extra, empty...)
		}
	}
	add(FieldRunID, `""`, o.RunID == "")
	add(FieldClearance, `{}`, len(o.Clearance) == 0)
	add(FieldAgeS, `{}`, len(o.AgeS) == 0)
	add(FieldDetections, `[]`, len(o.Detections) == 0)
	add(FieldHeld, `""`, o.Held == "")
	add(FieldImages, `[]`, len(o.Images) == 0)
	add(FieldState, `{}`, len(o.State) == 0)
	add(FieldSummary, `""`, o.Summary == "")
	add(FieldJoints, `{}`, len(o.Joints) == 0)
	add(FieldJointStates, `{}`, len(o.JointStates) == 0)
	add(FieldFrames, `{}`, len(o.Frames) == 0)
	if len(extra) == 0 {
		return b, nil
	}
	if len(b) == 2 { // "{}"
		extra = extra[1:]
	}
	out := make([]byte, 0, len(b)+len(extra))
	out = append(out, b[:len(b)-1]...)
	out = append(out, extra...)
	return append(out, '}'), nil
}

// The fields of the nested objects whose zero value is a reading (a
// gripper that is not closed, a pose at x 0): sent or not is kept for
// them too, by "object.field".
var nestedFields = [...]string{
	"gripper.opening_m", "gripper.closed", "gripper.force_n",
	"pose.x", "pose.y", "pose.theta_deg", "pose.room",
	"end_effector.frame", "end_effector.x", "end_effector.y", "end_effector.z",
	"end_effector.roll_deg", "end_effector.pitch_deg", "end_effector.yaw_deg",
}

func nestedBit(object, field string) uint32 {
	for i, f := range nestedFields {
		if len(f) == len(object)+1+len(field) && f[:len(object)] == object && f[len(object)] == '.' && f[len(object)+1:] == field {
			return 1 << i
		}
	}
	return 0
}

// SetKnownIn marks fields of a nested object (gripper, pose, end_effector)
// as sent.
func (o *Observation) SetKnownIn(object string, fields ...string) {
	o.sentIn |= decodedBit(object)
	for _, f := range fields {
		o.sentIn |= nestedBit(object, f)
	}
}

// KnownIn reports whether a nested object's field was sent. For an object
// decoded from JSON, a field is sent when its key was there (not null); an
// object built in Go counts as sent whole unless SetKnownIn marked some of
// its fields.
func (o *Observation) KnownIn(object, field string) bool {
	if !o.Known(object) {
		return false
	}
	bit := nestedBit(object, field)
	if bit == 0 || o.sentIn&(decodedBit(object)|objectBits(object)) == 0 {
		return true
	}
	return o.sentIn&bit != 0
}

// decodedBit marks a nested object as recorded field by field.
func decodedBit(object string) uint32 {
	switch object {
	case FieldGripper:
		return 1 << 29
	case FieldPose:
		return 1 << 30
	case FieldEndEffector:
		return 1 << 31
	}
	return 0
}

// objectBits are the bits of an object's fields.
func objectBits(object string) uint32 {
	var m uint32
	for i, f := range nestedFields {
		if len(f) > len(object) && f[:len(object)] == object && f[len(object)] == '.' {
			m |= 1 << i
		}
	}
	return m
}

// recordNested marks the fields present in the JSON objects of keys.
func (o *Observation) recordNested(keys map[string]json.RawMessage) {
	for _, object := range []string{FieldGripper, FieldPose, FieldEndEffector} {
		raw, ok := keys[object]
		if !ok {
			continue
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil || fields == nil {
			continue
		}
		o.sentIn |= decodedBit(object)
		for k, v := range fields {
			if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				o.sentIn |= nestedBit(object, strings.ToLower(k))
			}
		}
	}
}
