//go:build mujoco && cgo

package main

import (
	"fmt"
	"math"
)

// tabletop is one episode's simulation: the physics and the names the
// controllers drive, resolved once.
type tabletop struct {
	p                               *physics
	params                          params
	hand, mug, plate, bin, operator int
	ax, ay, az, aleft, aright       int
	jx, jy, jz, jleft, jright       int
	gMug, gLeft, gRight, gTable     int
	calls                           int // physical calls so far, for --intrusion-after
	held                            string
}

func newTabletop(pr params) (*tabletop, error) {
	p, err := loadPhysics(tabletopXML(pr))
	if err != nil {
		return nil, err
	}
	t := &tabletop{p: p, params: pr}
	var errs []error
	get := func(f func(string) (int, error), name string) int {
		i, err := f(name)
		errs = append(errs, err)
		return i
	}
	t.hand, t.mug = get(p.bodyID, "hand"), get(p.bodyID, "mug")
	t.plate, t.bin, t.operator = get(p.bodyID, "plate"), get(p.bodyID, "bin"), get(p.bodyID, "operator_hand")
	t.ax, t.ay, t.az = get(p.actuatorID, "x"), get(p.actuatorID, "y"), get(p.actuatorID, "z")
	t.aleft, t.aright = get(p.actuatorID, "left"), get(p.actuatorID, "right")
	t.jx, t.jy, t.jz = get(p.jointID, "x"), get(p.jointID, "y"), get(p.jointID, "z")
	t.jleft, t.jright = get(p.jointID, "left"), get(p.jointID, "right")
	t.gMug, t.gLeft, t.gRight, t.gTable = get(p.geomID, "mug"), get(p.geomID, "left_pad"), get(p.geomID, "right_pad"), get(p.geomID, "table")
	for _, err := range errs {
		if err != nil {
			p.close()
			return nil, fmt.Errorf("the tabletop scene: %w", err)
		}
	}
	// Start at rest above the table, fingers open, the mug settled.
	t.setHand(0.1, 0, carryZ+padBelow)
	if err := t.p.step(int(0.5 / timestep)); err != nil {
		p.close()
		return nil, err
	}
	return t, nil
}

func (t *tabletop) close() { t.p.close() }

// setHand sets the servo targets of the hand body's position (world frame).
func (t *tabletop) setHand(x, y, z float64) {
	t.p.setCtrl(t.ax, x)
	t.p.setCtrl(t.ay, y)
	t.p.setCtrl(t.az, z-handZ0)
}

// toolPoint is the point between the finger pads' centres: the tool frame.
func (t *tabletop) toolPoint() [3]float64 {
	h := t.p.bodyPos(t.hand)
	return [3]float64{h[0], h[1], h[2] - padBelow}
}

// moveTool drives the tool point to (x, y, z) along a straight line at
// speed m/s, then lets it settle; the servos do the rest.
func (t *tabletop) moveTool(x, y, z, speed float64) error {
	from := [3]float64{t.p.ctrl(t.ax), t.p.ctrl(t.ay), t.p.ctrl(t.az) + handZ0 - padBelow}
	to := [3]float64{x, y, z}
	dist := math.Sqrt(sq(to[0]-from[0]) + sq(to[1]-from[1]) + sq(to[2]-from[2]))
	steps := int(dist / speed / timestep)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		t.setHand(from[0]+f*(to[0]-from[0]), from[1]+f*(to[1]-from[1]), from[2]+f*(to[2]-from[2])+padBelow)
		if err := t.p.step(1); err != nil {
			return err
		}
	}
	t.setHand(x, y, z+padBelow)
	return t.p.step(int(0.15 / timestep))
}

// setFingers commands both fingers: 0 is open, closing squeezes with at
// most the grip force.
func (t *tabletop) setFingers(closed bool, hold float64) error {
	v := 0.0
	if closed {
		v = 0.06
	}
	t.p.setCtrl(t.aleft, v)
	t.p.setCtrl(t.aright, v)
	return t.p.step(int(hold / timestep))
}

func (t *tabletop) fingersClosed() bool { return t.p.ctrl(t.aleft) > 0 }

// openingM is the gap between the finger pads' inner faces.
func (t *tabletop) openingM() float64 {
	const open = 2 * (0.06 - 0.006)
	return open - t.p.qpos(t.jleft) - t.p.qpos(t.jright)
}

// between says whether the mug is between the finger pads: its centre
// within the pads' footprint around the tool point.
func (t *tabletop) between() bool {
	m, tp := t.p.bodyPos(t.mug), t.toolPoint()
	return math.Abs(m[0]-tp[0]) < 0.03 && math.Abs(m[1]-tp[1]) < 0.06 && math.Abs(m[2]-tp[2]) < padHalfZ+mugHalfZ
}

// lifted is the outcome of a grasp read from the state: the mug clear of
// the table and between the closed fingers, touching both pads.
func (t *tabletop) lifted() bool {
	m := t.p.bodyPos(t.mug)
	return t.fingersClosed() && m[2] > mugHalfZ+0.03 && t.between() &&
		t.p.touching(t.gMug, t.gLeft) && t.p.touching(t.gMug, t.gRight)
}

// inBin and onPlate read where the mug came to rest.
func (t *tabletop) inBin() bool {
	m, b := t.p.bodyPos(t.mug), t.p.bodyPos(t.bin)
	return math.Abs(m[0]-b[0]) < binInner && math.Abs(m[1]-b[1]) < binInner && m[2] < binRim+mugHalfZ
}

func (t *tabletop) onPlate() bool {
	m, pl := t.p.bodyPos(t.mug), t.p.bodyPos(t.plate)
	return math.Hypot(m[0]-pl[0], m[1]-pl[1]) < plateRadius && math.Abs(m[2]-(plateTop+mugHalfZ)) < 0.02
}

// curtainBroken casts rays along the light curtain's plane at three
// heights: anything across it (the operator's hand) breaks it.
func (t *tabletop) curtainBroken() bool {
	for _, z := range []float64{0.05, 0.15, 0.25} {
		d, _ := t.p.ray([3]float64{curtainX, -curtainHalfY, z}, [3]float64{0, 1, 0}, -1)
		if d >= 0 && d < 2*curtainHalfY {
			return true
		}
	}
	return false
}

// clearanceDown is the free distance below the tool point (mj_ray,
// ignoring the arm itself): what a downward motion may cover.
func (t *tabletop) clearanceDown() float64 {
	tp := t.toolPoint()
	from := tp[2] - padHalfZ - 0.001
	best := math.Max(from, 0) // the table's plane bounds every ray
	for _, dy := range []float64{-0.055, 0.055} {
		d, _ := t.p.ray([3]float64{tp[0], tp[1] + dy, from}, [3]float64{0, 0, -1}, t.hand)
		if d >= 0 && d < best {
			best = d
		}
	}
	return best
}

func sq(x float64) float64 { return x * x }
