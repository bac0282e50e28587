//go:build mujoco && cgo

package main

import (
	"fmt"
	"math"

	"github.com/thea-harness/thea/internal/simtools"
)

// kitchen is one episode of the kitchen scene.
type kitchen struct {
	p                               *physics
	params                          kitchenParams
	base, hand, drawer              int
	abx, aby, alift, areach, al, ar int
	jdrawer, jl, jr                 int
}

func newKitchen(pr kitchenParams) (*kitchen, error) {
	p, err := loadPhysics(kitchenXML(pr))
	if err != nil {
		return nil, err
	}
	k := &kitchen{p: p, params: pr}
	var errs []error
	get := func(f func(string) (int, error), name string) int {
		i, err := f(name)
		errs = append(errs, err)
		return i
	}
	k.base, k.hand, k.drawer = get(p.bodyID, "base"), get(p.bodyID, "hand"), get(p.bodyID, "drawer")
	k.abx, k.aby, k.alift, k.areach = get(p.actuatorID, "bx"), get(p.actuatorID, "by"), get(p.actuatorID, "lift"), get(p.actuatorID, "reach")
	k.al, k.ar = get(p.actuatorID, "k_left"), get(p.actuatorID, "k_right")
	k.jdrawer, k.jl, k.jr = get(p.jointID, "drawer"), get(p.jointID, "k_left"), get(p.jointID, "k_right")
	for _, err := range errs {
		if err != nil {
			p.close()
			return nil, fmt.Errorf("the kitchen scene: %w", err)
		}
	}
	k.p.setCtrl(k.abx, pr.BaseX)
	k.p.setCtrl(k.aby, pr.BaseY)
	k.p.setCtrl(k.alift, 0.3)
	if err := k.p.step(int(1.0 / timestep)); err != nil {
		p.close()
		return nil, err
	}
	return k, nil
}

func (k *kitchen) close() { k.p.close() }

// ramp moves one actuator's target to v at speed units/s, then settles.
func (k *kitchen) ramp(act int, v, speed float64) error {
	from := k.p.ctrl(act)
	n := int(math.Abs(v-from) / speed / timestep)
	for i := 1; i <= n; i++ {
		k.p.setCtrl(act, from+(v-from)*float64(i)/float64(n))
		if err := k.p.step(1); err != nil {
			return err
		}
	}
	k.p.setCtrl(act, v)
	return k.p.step(int(0.15 / timestep))
}

func (k *kitchen) fingers(closed bool) error {
	v := 0.0
	if closed {
		v = 0.06
	}
	k.p.setCtrl(k.al, v)
	k.p.setCtrl(k.ar, v)
	return k.p.step(int(0.4 / timestep))
}

// drawerOpenM is how far the drawer is out, read from its joint.
func (k *kitchen) drawerOpenM() float64 { return k.p.qpos(k.jdrawer) }

func (k *kitchen) drawerState() string {
	switch q := k.drawerOpenM(); {
	case q > 0.2:
		return "open"
	case q < 0.01:
		return "closed"
	}
	return "ajar"
}

// basePos is the base's centre on the floor.
func (k *kitchen) basePos() [3]float64 { return k.p.bodyPos(k.base) }

// clearance casts rays from the base's edges (mj_ray) in four directions:
// what a base motion may cover before it touches the counter, the walls or
// the open drawer.
func (k *kitchen) clearance() map[string]float64 {
	b := k.basePos()
	out := map[string]float64{}
	for name, d := range map[string][2]float64{"front": {1, 0}, "back": {-1, 0}, "left": {0, 1}, "right": {0, -1}} {
		best := 3.0
		for _, z := range []float64{0.05, 0.25} {
			for _, off := range []float64{-baseHalf + 0.01, 0, baseHalf - 0.01} {
				o := [3]float64{b[0] + d[0]*(baseHalf+0.001) + d[1]*off, b[1] + d[1]*(baseHalf+0.001) + d[0]*off, z}
				if dist, _ := k.p.ray(o, [3]float64{d[0], d[1], 0}, k.base); dist >= 0 && dist < best {
					best = dist
				}
			}
		}
		out[name] = round3(best)
	}
	return out
}

// moveBase drives the base to (x, y) in a straight line; it stops short
// when it bumps into something (the servo cannot push through a counter).
func (k *kitchen) moveBase(x, y float64) (envelope, error) {
	fx, fy := k.p.ctrl(k.abx), k.p.ctrl(k.aby)
	dist := math.Hypot(x-fx, y-fy)
	n := int(dist / 0.4 / timestep)
	for i := 1; i <= n; i++ {
		f := float64(i) / float64(n)
		k.p.setCtrl(k.abx, fx+(x-fx)*f)
		k.p.setCtrl(k.aby, fy+(y-fy)*f)
		if err := k.p.step(1); err != nil {
			return nil, err
		}
	}
	k.p.setCtrl(k.abx, x)
	k.p.setCtrl(k.aby, y)
	if err := k.p.step(int(0.3 / timestep)); err != nil {
		return nil, err
	}
	b := k.basePos()
	if math.Hypot(b[0]-x, b[1]-y) > 0.02 {
		return simtools.Fail("the base stopped at (%.2f, %.2f), short of (%.2f, %.2f): something is in the way", b[0], b[1], x, y), nil
	}
	return simtools.OK(envelope{"pose": envelope{"x": round3(b[0]), "y": round3(b[1]), "theta_deg": 0}}), nil
}

// handleX is the handle bar's x now (it moves with the drawer).
func (k *kitchen) handleX() float64 { return counterFront + 0.01 - 0.06 - k.drawerOpenM() }

// reachFor is the reach slide's target that puts the pads' centre at x.
func (k *kitchen) reachFor(x float64) float64 {
	return x - 0.04 - (k.basePos()[0] + armOffset)
}

// openDrawer: drive up to the drawer, grip its handle with the limited
// force, pull it out with the reach slide, let go. Whether it opens is
// decided by the grip's friction against the drawer's own.
func (k *kitchen) openDrawer() (envelope, error) {
	if s := k.drawerState(); s == "open" {
		return simtools.Fail("the drawer is already open"), nil
	}
	steps := []func() error{
		func() error { return k.fingers(false) },
		func() error { return k.ramp(k.areach, 0, 0.3) },
		func() error { _, err := k.moveBase(counterFront-0.6-k.drawerOpenM(), k.params.DrawerY); return err },
		func() error { return k.ramp(k.alift, handleZ-0.4, 0.3) },
		func() error { return k.ramp(k.areach, k.reachFor(k.handleX()), 0.2) },
		func() error { return k.fingers(true) },
		func() error { return k.ramp(k.areach, math.Max(0, k.p.ctrl(k.areach)-0.3), 0.15) },
		func() error { return k.fingers(false) },
		func() error { return k.ramp(k.areach, 0, 0.3) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	if k.drawerState() == "open" {
		return simtools.OK(envelope{"drawer": "open", "opening_m": round3(k.drawerOpenM())}), nil
	}
	return simtools.Fail("the handle slipped out of the fingers: the drawer is out only %.2f m (it runs stiff)", k.drawerOpenM()), nil
}

// closeDrawer pushes the drawer's handle home with the closed fingers.
func (k *kitchen) closeDrawer() (envelope, error) {
	if k.drawerState() == "closed" {
		return simtools.Fail("the drawer is already closed"), nil
	}
	steps := []func() error{
		func() error { return k.ramp(k.areach, 0, 0.3) },
		func() error {
			_, err := k.moveBase(counterFront-0.6-k.drawerOpenM()-0.05, k.params.DrawerY)
			return err
		},
		func() error { return k.ramp(k.alift, handleZ-0.4, 0.3) },
		func() error { return k.fingers(true) },
		func() error { return k.ramp(k.areach, k.reachFor(counterFront+0.01-0.06)-0.025, 0.2) },
		func() error { return k.ramp(k.areach, 0, 0.3) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	if k.drawerState() == "closed" {
		return simtools.OK(envelope{"drawer": "closed"}), nil
	}
	return simtools.Fail("the drawer did not close: it is still out %.2f m", k.drawerOpenM()), nil
}
