package world

import "fmt"

// Field reads an Observation field by its JSON name: known is false when
// the back-end did not send it; a name that is no Observation field is an
// error.
func (o *Observation) Field(name string) (value any, known bool, err error) {
	if fieldBit(name) == 0 {
		return nil, false, fmt.Errorf("the observation has no field %v", name)
	}
	if !o.Known(name) {
		return nil, false, nil
	}
	switch name {
	case FieldRunID:
		return o.RunID, true, nil
	case FieldClearance:
		return o.Clearance, true, nil
	case FieldAgeS:
		return o.AgeS, true, nil
	case FieldDetections:
		return o.Detections, true, nil
	case FieldHeld:
		return o.Held, true, nil
	case FieldPose:
		return o.Pose, true, nil
	case FieldImages:
		return o.Images, true, nil
	case FieldState:
		return o.State, true, nil
	case FieldSummary:
		return o.Summary, true, nil
	case FieldJoints:
		return o.Joints, true, nil
	case FieldEndEffector:
		return o.EndEffector, true, nil
	case FieldJointStates:
		return o.JointStates, true, nil
	case FieldFrames:
		return o.Frames, true, nil
	}
	return o.Gripper, true, nil
}
