//go:build mujoco && cgo

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// params are what a seed varies in the tabletop: where the objects start,
// the friction between the fingers and the mug, and the mug's mass. Every
// outcome follows from them through contact; nothing is drawn afterwards.
type params struct {
	MugX, MugY, MugYaw float64
	PlateX, PlateY     float64
	BinX, BinY         float64
	Friction           float64 // the fingers' and the mug's (contact takes the larger)
	MassKg             float64
	GripN              float64 // the fingers' force limit
}

// span is a closed range of a flag, "A..B" or a single "A".
type span struct{ Lo, Hi float64 }

func parseSpan(flag, s string) (span, error) {
	lo, hi, isRange := strings.Cut(s, "..")
	var r span
	if _, err := fmt.Sscanf(lo, "%g", &r.Lo); err != nil {
		return r, fmt.Errorf("--%s %q: want a number or a range A..B", flag, s)
	}
	r.Hi = r.Lo
	if isRange {
		if _, err := fmt.Sscanf(hi, "%g", &r.Hi); err != nil {
			return r, fmt.Errorf("--%s %q: want a number or a range A..B", flag, s)
		}
	}
	if math.IsNaN(r.Lo) || math.IsNaN(r.Hi) || r.Lo > r.Hi || r.Lo <= 0 || math.IsInf(r.Hi, 0) {
		return r, fmt.Errorf("--%s %q: want 0 < A ≤ B", flag, s)
	}
	return r, nil
}

func (r span) draw(rng *rand.Rand) float64 { return r.Lo + (r.Hi-r.Lo)*rng.Float64() }

// newParams draws a scene from seed. The draws are made in a fixed order,
// so a seed gives the same scene on every machine.
func newParams(seed uint64, friction, mass span, grip float64) params {
	rng := rand.New(rand.NewPCG(seed, 0x7468656173696d))
	return params{
		MugX:     0.36 + 0.08*rng.Float64(),
		MugY:     -0.08 + 0.16*rng.Float64(),
		MugYaw:   -0.3 + 0.6*rng.Float64(),
		PlateX:   0.38 + 0.04*rng.Float64(),
		PlateY:   0.24 + 0.04*rng.Float64(),
		BinX:     0.38 + 0.04*rng.Float64(),
		BinY:     -0.30 + 0.04*rng.Float64(),
		Friction: friction.draw(rng),
		MassKg:   mass.draw(rng),
		GripN:    grip,
	}
}

// Geometry the controllers and the outcome checks share with the MJCF.
const (
	handZ0       = 0.30  // the hand body's height at z joint 0
	padBelow     = 0.05  // the finger pads' centre below the hand body
	padHalfZ     = 0.04  // half the pads' height
	mugHalf      = 0.03  // half the mug's width
	mugHalfZ     = 0.05  // half the mug's height
	plateRadius  = 0.08  // the plate's radius
	plateTop     = 0.01  // the plate's top above the table
	binInner     = 0.08  // half the bin's inner width
	binRim       = 0.08  // the bin's wall height
	curtainX     = -0.15 // the light curtain's plane, in front of the arm
	curtainHalfY = 0.40
	timestep     = 0.002
)

// tabletopXML is the scene: a table, a gantry arm (three position-servoed
// slides) with a parallel gripper whose fingers are force-limited, a mug on
// a free joint, a plate, a bin, a light curtain across the operator's side
// and a mocap "operator's hand" that can reach into it.
func tabletopXML(p params) string {
	binWalls := fmt.Sprintf(`
      <geom name="bin_floor" type="box" pos="0 0 0.005" size="%[1]g %[1]g 0.005" rgba="0.35 0.35 0.4 1"/>
      <geom name="bin_wall_n" type="box" pos="%[2]g 0 %[3]g" size="0.005 %[4]g %[3]g" rgba="0.35 0.35 0.4 1"/>
      <geom name="bin_wall_s" type="box" pos="-%[2]g 0 %[3]g" size="0.005 %[4]g %[3]g" rgba="0.35 0.35 0.4 1"/>
      <geom name="bin_wall_e" type="box" pos="0 %[2]g %[3]g" size="%[4]g 0.005 %[3]g" rgba="0.35 0.35 0.4 1"/>
      <geom name="bin_wall_w" type="box" pos="0 -%[2]g %[3]g" size="%[4]g 0.005 %[3]g" rgba="0.35 0.35 0.4 1"/>`,
		binInner, binInner+0.005, binRim/2, binInner+0.01)
	return fmt.Sprintf(`<mujoco model="thea-tabletop">
  <compiler autolimits="true" angle="radian"/>
  <option timestep="%[1]g" cone="elliptic" impratio="10"/>
  <visual><global offwidth="640" offheight="480"/><quality shadowsize="0"/><headlight ambient="0.35 0.35 0.35" diffuse="0.5 0.5 0.5"/></visual>
  <default>
    <geom condim="3" solref="0.004 1"/>
  </default>
  <worldbody>
    <light pos="0.3 0 1.5" dir="0 0 -1" diffuse="0.8 0.8 0.8" castshadow="false"/>
    <geom name="table" type="plane" size="1 1 0.01" rgba="0.55 0.42 0.3 1" friction="0.8 0.005 0.0001"/>
    <camera name="overhead" pos="0.35 0 1.1" xyaxes="0 -1 0 1 0 0" fovy="60"/>
    <camera name="front" pos="-0.45 0 0.55" xyaxes="0 -1 0 0.6 0 0.8" fovy="60"/>
    <site name="curtain" type="box" pos="%[2]g 0 0.15" size="0.002 %[3]g 0.15" rgba="1 0.2 0.2 0.15"/>
    <body name="hand" pos="0 0 %[4]g">
      <joint name="x" type="slide" axis="1 0 0" range="-0.2 0.7" damping="120"/>
      <joint name="y" type="slide" axis="0 1 0" range="-0.5 0.5" damping="120"/>
      <joint name="z" type="slide" axis="0 0 1" range="-0.29 0.3" damping="120"/>
      <geom name="palm" type="box" size="0.02 0.075 0.012" mass="0.3" rgba="0.2 0.2 0.25 1"/>
      <camera name="wrist" pos="0.025 0 -0.015" xyaxes="0 -1 0 1 0 0" fovy="80"/>
      <body name="left_finger" pos="0 0.06 -%[5]g">
        <joint name="left" type="slide" axis="0 -1 0" range="-0.005 0.06" damping="8"/>
        <geom name="left_pad" type="box" size="0.012 0.006 %[6]g" mass="0.04" friction="%[7]g 0.005 0.0001" rgba="0.8 0.8 0.85 1"/>
      </body>
      <body name="right_finger" pos="0 -0.06 -%[5]g">
        <joint name="right" type="slide" axis="0 1 0" range="-0.005 0.06" damping="8"/>
        <geom name="right_pad" type="box" size="0.012 0.006 %[6]g" mass="0.04" friction="%[7]g 0.005 0.0001" rgba="0.8 0.8 0.85 1"/>
      </body>
    </body>
    <body name="mug" pos="%[8]g %[9]g %[10]g" euler="0 0 %[11]g">
      <freejoint name="mug"/>
      <geom name="mug" type="box" size="%[12]g %[12]g %[10]g" mass="%[13]g" friction="%[7]g 0.005 0.0001" rgba="0.85 0.2 0.2 1"/>
    </body>
    <body name="plate" pos="%[14]g %[15]g 0">
      <geom name="plate" type="cylinder" pos="0 0 %[16]g" size="%[17]g %[16]g" rgba="0.95 0.95 0.9 1"/>
    </body>
    <body name="bin" pos="%[18]g %[19]g 0">%[20]s
    </body>
    <body name="operator_hand" mocap="true" pos="-1 0 0.15">
      <geom name="operator_hand" type="capsule" size="0.03 0.08" euler="0 1.5708 0" contype="0" conaffinity="0" rgba="0.9 0.7 0.6 1"/>
    </body>
  </worldbody>
  <actuator>
    <position name="x" joint="x" kp="3000" ctrlrange="-0.2 0.7"/>
    <position name="y" joint="y" kp="3000" ctrlrange="-0.5 0.5"/>
    <position name="z" joint="z" kp="3000" ctrlrange="-0.29 0.3"/>
    <position name="left" joint="left" kp="800" ctrlrange="-0.005 0.06" forcerange="-%[21]g %[21]g"/>
    <position name="right" joint="right" kp="800" ctrlrange="-0.005 0.06" forcerange="-%[21]g %[21]g"/>
  </actuator>
</mujoco>
`, timestep, curtainX, curtainHalfY, handZ0, padBelow, padHalfZ, p.Friction,
		p.MugX, p.MugY, mugHalfZ, p.MugYaw, mugHalf, p.MassKg,
		p.PlateX, p.PlateY, plateTop/2, plateRadius, p.BinX, p.BinY, binWalls, p.GripN)
}
