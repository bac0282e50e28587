// Package world owns the runtime values every layer shares: the Observation
// a body reports (and the pieces it holds: Pose, Detection, Point,
// JointState, EndEffectorPose, Gripper, Image), the Clearance a safety
// reading gives and the Verdict an evaluator gives. These shapes are
// documented contracts a back-end in any language returns.
//
// Decode (and DecodeValue, for a value already parsed) is the one decoder of
// an observation and Fields its one field list: the body layer's "is this an
// observation" check, the observe stage, the Scene Graph and the run log read
// through them. A field a back-end did not send is unknown, never its zero
// value (Observation.Known). The package imports no CUE and not schema.
package world
