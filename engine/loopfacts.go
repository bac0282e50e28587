package engine

import (
	"maps"
	"reflect"
	"slices"

	"github.com/thea-harness/thea/world"
)

// sameFacts reports whether two observations state the same facts about the
// world: what the back-end sent, not when (ages and run ids are left out),
// nor camera frames (pixels differ between two frames of an unchanged
// scene) or detector confidence (a score jitters frame to frame). A
// missing observation (none configured, or unavailable) shows no progress:
// the detector cannot tell a change it cannot see, and fails closed.
// It runs only when a call repeats, so it compares instead of hashing every
// turn.
func sameFacts(a, b *world.Observation) bool {
	if a == nil || b == nil || a == b {
		return true
	}
	return a.Held == b.Held && a.Summary == b.Summary &&
		equalPtr(a.Pose, b.Pose) && equalPtr(a.EndEffector, b.EndEffector) && equalPtr(a.Gripper, b.Gripper) &&
		maps.Equal(a.Clearance, b.Clearance) && maps.Equal(a.Joints, b.Joints) && maps.Equal(a.Frames, b.Frames) &&
		maps.EqualFunc(a.JointStates, b.JointStates, sameJoint) &&
		slices.EqualFunc(a.Detections, b.Detections, sameDetection) &&
		reflect.DeepEqual(a.State, b.State)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameJoint(a, b world.JointState) bool {
	return a.Position == b.Position && equalPtr(a.Velocity, b.Velocity) && equalPtr(a.Effort, b.Effort)
}

func sameDetection(a, b world.Detection) bool {
	if !equalPtr(a.Position, b.Position) {
		return false
	}
	a.Position, b.Position, a.Score, b.Score = nil, nil, 0, 0
	return a == b
}
