//go:build mujoco && cgo

package main

import (
	"testing"
)

// grasp runs one scripted pick_up of the mug in the scene of seed 7 with
// the given friction (mass fixed) and returns the envelope and the mug's
// final position.
func grasp(t *testing.T, friction float64) (envelope, [3]float64) {
	t.Helper()
	one := span{friction, friction}
	tt, err := newTabletop(newParams(7, one, span{0.25, 0.25}, 4))
	if err != nil {
		t.Fatal(err)
	}
	defer tt.close()
	e, err := tt.pickUp("mug")
	if err != nil {
		t.Fatal(err)
	}
	return e, tt.p.bodyPos(tt.mug)
}

// A slip is decided by contact, not a draw: the same scene (pose, mass,
// grip force) with friction 0.1 drops the mug and with 0.5 holds it, and
// each run is bit-identical to a second one.
func TestSlipIsDecidedByFriction(t *testing.T) {
	slippy, at1 := grasp(t, 0.1)
	if slippy["success"] != false {
		t.Fatalf("friction 0.1: %v, want a slip", slippy)
	}
	grippy, at5 := grasp(t, 0.5)
	if grippy["success"] != true {
		t.Fatalf("friction 0.5: %v (mug at %v), want held", grippy, at5)
	}
	if at1[2] > mugHalfZ+0.01 || at5[2] < carryZ-0.05 {
		t.Errorf("mug heights %.4f (0.1) and %.4f (0.5): want on the table and up in the gripper", at1[2], at5[2])
	}
	again1, at1b := grasp(t, 0.1)
	again5, at5b := grasp(t, 0.5)
	if at1 != at1b || at5 != at5b || again1["reason"] != slippy["reason"] || again5["success"] != true {
		t.Errorf("not bit-identical: %v vs %v, %v vs %v", at1, at1b, at5, at5b)
	}
	t.Logf("0.1: %v at %v; 0.5: %v at %v", slippy, at1, grippy, at5)
}
