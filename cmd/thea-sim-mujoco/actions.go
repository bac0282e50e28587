//go:build mujoco && cgo

package main

import (
	"fmt"
	"math"

	"github.com/thea-harness/thea/internal/simtools"
)

// envelope is a tool's result: {success, reason | value...}, the same
// wire as the household simulator's.
type envelope = simtools.Envelope

const (
	carryZ    = 0.22 // the tool point's height when carrying over the table
	moveSpeed = 0.25 // m/s of the scripted motions
)

// pickUp is a scripted grasp over real contact: open, come down around the
// object, close with the limited grip force, lift and hold. Whether the
// object comes up is decided by the contacts, not by a draw.
func (t *tabletop) pickUp(object string) (envelope, error) {
	if object != "mug" {
		return simtools.Fail("%q cannot be picked up: only the mug is graspable (the plate and the bin are fixed)", object), nil
	}
	if t.held != "" {
		return simtools.Fail("the gripper already holds the %s: place it first", t.held), nil
	}
	m := t.p.bodyPos(t.mug)
	steps := []func() error{
		func() error { return t.setFingers(false, 0.2) },
		func() error { return t.moveTool(m[0], m[1], carryZ, moveSpeed) },
		func() error { return t.moveTool(m[0], m[1], m[2], moveSpeed/2) },
		func() error { return t.setFingers(true, 0.5) },
		func() error { return t.moveTool(m[0], m[1], carryZ, moveSpeed) },
		func() error { return t.p.step(int(1.0 / timestep)) }, // the hold
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	if t.lifted() {
		t.held = "mug"
		return simtools.OK(envelope{"held": "mug"}), nil
	}
	now := t.p.bodyPos(t.mug)
	if math.Abs(now[0]-m[0]) < 0.03 && math.Abs(now[1]-m[1]) < 0.03 && now[2] < mugHalfZ+0.01 {
		return simtools.Fail("the mug slipped out of the fingers as the arm lifted (it is back on the table)"), nil
	}
	return simtools.Fail("the grasp missed: the mug is not between the fingers (it is at x=%.3f y=%.3f)", now[0], now[1]), nil
}

// place carries the held object over target (bin or plate), lowers it,
// opens and backs off; where it comes to rest decides the outcome.
func (t *tabletop) place(object, target string) (envelope, error) {
	if t.held == "" || t.held != object {
		return simtools.Fail("the gripper does not hold the %s: pick it up first", object), nil
	}
	var dest [3]float64
	var z float64
	switch target {
	case "bin":
		dest = t.p.bodyPos(t.bin)
		z = 0.01 + mugHalfZ + 0.02 // the mug's bottom just above the bin's floor
	case "plate":
		dest = t.p.bodyPos(t.plate)
		z = plateTop + mugHalfZ + 0.01
	default:
		return simtools.Fail("target %q: want bin or plate", target), nil
	}
	if target == "bin" {
		// Over the rim first, so the mug does not catch a wall.
		if err := t.moveTool(dest[0], dest[1], carryZ, moveSpeed); err != nil {
			return nil, err
		}
	}
	steps := []func() error{
		func() error { return t.moveTool(dest[0], dest[1], math.Max(z, carryZ-0.1), moveSpeed) },
		func() error { return t.moveTool(dest[0], dest[1], z, moveSpeed/2) },
		func() error { return t.setFingers(false, 0.4) },
		func() error { return t.moveTool(dest[0], dest[1], carryZ, moveSpeed) },
		func() error { return t.p.step(int(0.5 / timestep)) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	t.held = ""
	if (target == "bin" && t.inBin()) || (target == "plate" && t.onPlate()) {
		return simtools.OK(envelope{"placed": object, "target": target}), nil
	}
	m := t.p.bodyPos(t.mug)
	return simtools.Fail("the %s did not come to rest %s the %s (it is at x=%.3f y=%.3f z=%.3f)", object, relation(target), target, m[0], m[1], m[2]), nil
}

func relation(target string) string {
	if target == "bin" {
		return "in"
	}
	return "on"
}

// move drives the tool point to a position; the spec's clearance hook has
// read clearanceDown (mj_ray) before it is called.
func (t *tabletop) move(x, y, z float64) (envelope, error) {
	if z < 0 || z > 0.5 || math.Abs(y) > 0.5 || x < -0.2 || x > 0.7 {
		return simtools.Fail("(%.3f, %.3f, %.3f) is outside the arm's travel (x -0.2..0.7, y -0.5..0.5, z 0..0.5 m)", x, y, z), nil
	}
	if err := t.moveTool(x, y, z, moveSpeed); err != nil {
		return nil, err
	}
	tp := t.toolPoint()
	if math.Abs(tp[0]-x) > 0.01 || math.Abs(tp[1]-y) > 0.01 || math.Abs(tp[2]-z) > 0.01 {
		return simtools.Fail("the tool stopped at (%.3f, %.3f, %.3f), short of the target: something is in the way", tp[0], tp[1], tp[2]), nil
	}
	return simtools.OK(envelope{"end_effector": envelope{"frame": "world", "x": round3(tp[0]), "y": round3(tp[1]), "z": round3(tp[2])}}), nil
}

// taskDone is the benchmark's own success for a task, read from the state.
func (t *tabletop) taskDone(task string) (bool, string, error) {
	switch task {
	case "mug_in_bin":
		return t.inBin() && !t.between(), "the mug is in the bin", nil
	case "mug_on_plate":
		return t.onPlate() && !t.between(), "the mug is on the plate", nil
	case "lift_mug":
		return t.lifted(), "the mug is held above the table", nil
	}
	return false, "", fmt.Errorf("task %q: want mug_in_bin, mug_on_plate or lift_mug", task)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
