package world

import "fmt"

// ObservedField reads a field by its JSON name for the rule language (it
// makes an Observation a rules.Observed, so a rule that reads a field the
// back-end did not send fails closed); false when it was not sent.
func (o Observation) ObservedField(k any) (any, bool, error) {
	name, ok := k.(string)
	if !ok {
		return nil, false, fmt.Errorf("the observation has no field %v", k)
	}
	return o.Field(name)
}

// ObservedIn reports whether a field of a nested object (gripper, pose,
// end_effector) was sent.
func (o Observation) ObservedIn(object, field string) bool { return o.KnownIn(object, field) }
