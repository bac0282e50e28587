//go:build mujoco && cgo

package main

import (
	"strings"
	"testing"
)

// A MuJoCo error in a step (here the stack running out when a big body
// lands on three boxes) comes back as a Go error through the
// mju_user_error handler; without it MuJoCo exits the process.
func TestMuJoCoErrorIsAGoError(t *testing.T) {
	const crowded = `<mujoco><size nstack="1000"/><worldbody>
	  <body pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
	  <body pos="1 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
	  <body pos="2 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
	  <body name="big" mocap="true" pos="5 5 5"><geom type="box" size="2 2 2"/></body>
	</worldbody></mujoco>`
	p, err := loadPhysics(crowded)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	big, err := p.bodyID("big")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.setMocap(big, [3]float64{1, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := p.step(2); err == nil || !strings.Contains(err.Error(), "Stack overflow") {
		t.Fatalf("step: %v, want MuJoCo's stack overflow as an error", err)
	}
	// The process lives on and MuJoCo still works.
	tt, err := newTabletop(newParams(1, span{0.5, 0.5}, span{0.2, 0.2}, 4))
	if err != nil {
		t.Fatal(err)
	}
	tt.close()
}

// A scene MuJoCo rejects names the reason, positioned in the MJCF.
func TestBadSceneIsAnError(t *testing.T) {
	_, err := loadPhysics(`<mujoco><worldbody><joint name="j" type="slide" range="0 1"/></worldbody></mujoco>`)
	if err == nil {
		t.Fatal("a joint in the world body compiled")
	}
	if !strings.Contains(err.Error(), "World body cannot have joints") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("err = %v, want MuJoCo's reason and line", err)
	}
}
