//go:build mujoco && cgo

package main

import (
	"fmt"
	"math/rand/v2"
)

// kitchenParams are what a seed varies in the kitchen: where the robot
// starts, how stiff the drawer runs (its dry friction) and the grip's
// friction on the handle.
type kitchenParams struct {
	BaseX, BaseY    float64
	DrawerY         float64
	DrawerFrictionN float64
	Friction        float64
	GripN           float64
}

func newKitchenParams(seed uint64, friction, drawer span, grip float64) kitchenParams {
	rng := rand.New(rand.NewPCG(seed, 0x6b69746368656e))
	return kitchenParams{
		BaseX:           0.2 + 0.2*rng.Float64(),
		BaseY:           -0.3 + 0.6*rng.Float64(),
		DrawerY:         -0.2 + 0.4*rng.Float64(),
		Friction:        friction.draw(rng),
		DrawerFrictionN: drawer.draw(rng),
		GripN:           grip,
	}
}

// Kitchen geometry shared by the MJCF and the controllers.
const (
	counterFront = 1.2  // the counter's front face, x
	handleZ      = 0.7  // the drawer handle's height
	handleOut    = 0.05 // the handle bar's distance in front of the drawer
	drawerTravel = 0.35 // how far the drawer opens
	baseHalf     = 0.2  // half the base's footprint
	armOffset    = 0.25 // the reach slide's origin ahead of the base's centre
)

// kitchenXML: a counter with one drawer (a slide joint with dry friction)
// and a holonomic mobile base carrying a lift, a reach slide and a parallel
// gripper. The drawer and the counter do not collide with each other (the
// slide joint keeps the drawer in its slot); the robot collides with both.
func kitchenXML(p kitchenParams) string {
	return fmt.Sprintf(`<mujoco model="thea-kitchen">
  <compiler autolimits="true" angle="radian"/>
  <option timestep="%[1]g" cone="elliptic" impratio="10"/>
  <visual><global offwidth="640" offheight="480"/><quality shadowsize="0"/><headlight ambient="0.35 0.35 0.35" diffuse="0.5 0.5 0.5"/></visual>
  <default><geom condim="3" solref="0.004 1" contype="1" conaffinity="1"/></default>
  <worldbody>
    <light pos="0.6 0 2.5" dir="0 0 -1" diffuse="0.8 0.8 0.8" castshadow="false"/>
    <geom name="floor" type="plane" size="3 3 0.01" rgba="0.6 0.6 0.6 1"/>
    <camera name="overview" pos="-0.6 0 1.8" xyaxes="0 -1 0 0.6 0 0.8" fovy="60"/>
    <geom name="counter" type="box" pos="%[2]g 0 0.45" size="0.3 0.8 0.45" rgba="0.75 0.7 0.6 1"/>
    <geom name="wall_left" type="box" pos="0.6 1.3 0.5" size="0.9 0.02 0.5" rgba="0.9 0.9 0.9 1"/>
    <geom name="wall_right" type="box" pos="0.6 -1.3 0.5" size="0.9 0.02 0.5" rgba="0.9 0.9 0.9 1"/>
    <body name="drawer" pos="%[3]g %[4]g %[5]g">
      <joint name="drawer" type="slide" axis="-1 0 0" range="0 %[6]g" damping="10" frictionloss="%[7]g"/>
      <geom name="drawer_front" type="box" pos="0 0 0" size="0.01 0.2 0.08" contype="2" conaffinity="2" rgba="0.55 0.4 0.3 1" mass="1"/>
      <geom name="drawer_box" type="box" pos="0.2 0 -0.02" size="0.19 0.18 0.05" contype="2" conaffinity="2" rgba="0.6 0.45 0.35 1" mass="1"/>
      <geom name="handle_top" type="box" pos="-0.03 0 0.05" size="0.03 0.01 0.01" contype="2" conaffinity="2" rgba="0.3 0.3 0.3 1" mass="0.05"/>
      <geom name="handle_bottom" type="box" pos="-0.03 0 -0.05" size="0.03 0.01 0.01" contype="2" conaffinity="2" rgba="0.3 0.3 0.3 1" mass="0.05"/>
      <geom name="handle" type="box" pos="-%[8]g 0 0" size="0.01 0.012 0.06" contype="2" conaffinity="2" friction="%[9]g 0.005 0.0001" rgba="0.2 0.2 0.2 1" mass="0.05"/>
    </body>
    <body name="base" pos="0 0 0.15">
      <joint name="bx" type="slide" axis="1 0 0" damping="400"/>
      <joint name="by" type="slide" axis="0 1 0" damping="400"/>
      <geom name="base" type="box" size="%[10]g %[10]g 0.15" mass="20" contype="1" conaffinity="1" rgba="0.25 0.3 0.4 1"/>
      <body name="lift" pos="%[11]g 0 0.15">
        <joint name="lift" type="slide" axis="0 0 1" range="0 1.0" damping="200"/>
        <geom name="mast" type="box" pos="0 0 0.05" size="0.02 0.02 0.05" mass="1" contype="0" conaffinity="0" rgba="0.3 0.3 0.3 1"/>
        <body name="hand" pos="0 0 0.1">
          <joint name="reach" type="slide" axis="1 0 0" range="0 0.7" damping="200"/>
          <geom name="palm" type="box" size="0.02 0.075 0.012" mass="0.5" contype="0" conaffinity="0" rgba="0.2 0.2 0.25 1"/>
          <camera name="wrist" pos="0.0 0 0.04" xyaxes="0 -1 0 0 0 1" fovy="70"/>
          <body name="k_left" pos="0.04 0.06 0">
            <joint name="k_left" type="slide" axis="0 -1 0" range="-0.005 0.06" damping="8"/>
            <geom name="k_left_pad" type="box" size="0.02 0.006 0.03" mass="0.04" contype="3" conaffinity="3" friction="%[9]g 0.005 0.0001" rgba="0.8 0.8 0.85 1"/>
          </body>
          <body name="k_right" pos="0.04 -0.06 0">
            <joint name="k_right" type="slide" axis="0 1 0" range="-0.005 0.06" damping="8"/>
            <geom name="k_right_pad" type="box" size="0.02 0.006 0.03" mass="0.04" contype="3" conaffinity="3" friction="%[9]g 0.005 0.0001" rgba="0.8 0.8 0.85 1"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <contact><exclude body1="k_left" body2="k_right"/></contact>
  <actuator>
    <position name="bx" joint="bx" kp="20000"/>
    <position name="by" joint="by" kp="20000"/>
    <position name="lift" joint="lift" kp="8000" ctrlrange="0 1.0"/>
    <position name="reach" joint="reach" kp="6000" ctrlrange="0 0.7"/>
    <position name="k_left" joint="k_left" kp="800" ctrlrange="-0.005 0.06" forcerange="-%[12]g %[12]g"/>
    <position name="k_right" joint="k_right" kp="800" ctrlrange="-0.005 0.06" forcerange="-%[12]g %[12]g"/>
  </actuator>
</mujoco>
`, timestep, counterFront+0.3, counterFront+0.01, p.DrawerY, handleZ, drawerTravel, p.DrawerFrictionN,
		0.06, p.Friction, baseHalf, armOffset, p.GripN)
}
