package schema

import (
	"fmt"

	"github.com/thea-harness/thea/rules"
)

// An Observation knows which of its fields a back-end sent, so a rule that
// reads one it did not send fails closed (rules.Observed).
var _ rules.Observed = Observation{}

// ObservedField reads an Observation field by its JSON name; false when it
// was not sent.
func (o Observation) ObservedField(k any) (any, bool, error) {
	name, _ := k.(string)
	if fieldBit(name) == 0 {
		return nil, false, fmt.Errorf("the observation has no field %v", k)
	}
	if !o.Known(name) {
		return nil, false, nil
	}
	switch name {
	case FieldRunID:
		return o.RunID, true, nil
	case FieldClearance:
		return o.Clearance, true, nil
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
	}
	return o.Gripper, true, nil
}

// ObservedIn reports whether a field of a nested object (gripper, pose,
// end_effector) was sent.
func (o Observation) ObservedIn(object, field string) bool { return o.KnownIn(object, field) }
