//go:build mujoco && cgo

package main

/*
#cgo LDFLAGS: -lmujoco
#include <stdlib.h>
#include "bridge.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// physics owns one MuJoCo model and its data. It is not safe for
// concurrent use: the simulator's one goroutine drives it.
type physics struct {
	m *C.mjModel
	d *C.mjData
}

// loadPhysics compiles an MJCF document; a MuJoCo error is returned, never
// an exit of the process.
func loadPhysics(xml string) (*physics, error) {
	C.thea_install_handlers()
	cxml := C.CString(xml)
	defer C.free(unsafe.Pointer(cxml))
	var buf [1024]C.char
	m := C.thea_load_xml(cxml, &buf[0], C.int(len(buf)))
	if m == nil {
		return nil, fmt.Errorf("compile the scene: %s", C.GoString(&buf[0]))
	}
	d := C.thea_make_data(m)
	if d == nil {
		C.mj_deleteModel(m)
		return nil, fmt.Errorf("allocate the scene's data: %s", C.GoString(C.thea_last_error()))
	}
	p := &physics{m: m, d: d}
	if err := p.forward(); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

func (p *physics) close() {
	if p.d != nil {
		C.mj_deleteData(p.d)
		p.d = nil
	}
	if p.m != nil {
		C.mj_deleteModel(p.m)
		p.m = nil
	}
}

// step advances n timesteps. MuJoCo resets a diverging simulation with a
// warning instead of failing; that is an error here, since the outcome of
// the motion would be made up.
func (p *physics) step(n int) error {
	if C.thea_step(p.m, p.d, C.int(n)) != 0 {
		return fmt.Errorf("mujoco: %s", C.GoString(C.thea_last_error()))
	}
	return p.diverged()
}

func (p *physics) forward() error {
	if C.thea_forward(p.m, p.d) != 0 {
		return fmt.Errorf("mujoco: %s", C.GoString(C.thea_last_error()))
	}
	return p.diverged()
}

func (p *physics) diverged() error {
	if p.d.warning[C.mjWARN_BADQACC].number > 0 {
		return errors.New("mujoco: the simulation diverged (bad acceleration) and was reset")
	}
	return nil
}

func (p *physics) time() float64 { return float64(p.d.time) }

func (p *physics) id(kind C.int, name string) (int, error) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	i := int(C.mj_name2id(p.m, kind, cn))
	if i < 0 {
		return 0, fmt.Errorf("the scene has no %s named %q", kindName(kind), name)
	}
	return i, nil
}

func kindName(kind C.int) string {
	switch kind {
	case C.mjOBJ_BODY:
		return "body"
	case C.mjOBJ_JOINT:
		return "joint"
	case C.mjOBJ_ACTUATOR:
		return "actuator"
	case C.mjOBJ_GEOM:
		return "geom"
	case C.mjOBJ_CAMERA:
		return "camera"
	}
	return "object"
}

func (p *physics) bodyID(name string) (int, error)     { return p.id(C.mjOBJ_BODY, name) }
func (p *physics) jointID(name string) (int, error)    { return p.id(C.mjOBJ_JOINT, name) }
func (p *physics) actuatorID(name string) (int, error) { return p.id(C.mjOBJ_ACTUATOR, name) }
func (p *physics) geomID(name string) (int, error)     { return p.id(C.mjOBJ_GEOM, name) }

func mjSlice(ptr *C.mjtNum, n int) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(ptr)), n)
}

// bodyPos is a body's position in the world frame.
func (p *physics) bodyPos(body int) [3]float64 {
	x := mjSlice(p.d.xpos, int(p.m.nbody)*3)[body*3:]
	return [3]float64{x[0], x[1], x[2]}
}

// bodyMat is a body's orientation as a row-major 3×3 matrix.
func (p *physics) bodyMat(body int) [9]float64 {
	x := mjSlice(p.d.xmat, int(p.m.nbody)*9)[body*9:]
	var r [9]float64
	copy(r[:], x)
	return r
}

func (p *physics) qpos(joint int) float64 {
	adr := unsafe.Slice(p.m.jnt_qposadr, int(p.m.njnt))[joint]
	return mjSlice(p.d.qpos, int(p.m.nq))[adr]
}

func (p *physics) setCtrl(actuator int, v float64) {
	mjSlice(p.d.ctrl, int(p.m.nu))[actuator] = v
}

func (p *physics) ctrl(actuator int) float64 {
	return mjSlice(p.d.ctrl, int(p.m.nu))[actuator]
}

func (p *physics) setMocap(body int, pos [3]float64) error {
	id := int(unsafe.Slice(p.m.body_mocapid, int(p.m.nbody))[body])
	if id < 0 {
		return errors.New("not a mocap body")
	}
	copy(mjSlice(p.d.mocap_pos, int(p.m.nmocap)*3)[id*3:], pos[:])
	return nil
}

// ray casts from pnt along the unit vector dir and returns the distance to
// the first geom it hits (excluding the body exclude and its own geoms),
// or -1 when it hits nothing.
func (p *physics) ray(pnt, dir [3]float64, exclude int) (float64, int) {
	var geom C.int
	d := C.mj_ray(p.m, p.d, (*C.mjtNum)(unsafe.Pointer(&pnt[0])), (*C.mjtNum)(unsafe.Pointer(&dir[0])), nil, 1, C.int(exclude), &geom)
	return float64(d), int(geom)
}

// touching says whether two geoms are in contact now.
func (p *physics) touching(g1, g2 int) bool {
	cs := unsafe.Slice(p.d.contact, int(p.m.nconmax))[:int(p.d.ncon)]
	for _, c := range cs {
		a, b := int(c.geom1), int(c.geom2)
		if (a == g1 && b == g2) || (a == g2 && b == g1) {
			return true
		}
	}
	return false
}

func (p *physics) geomName(g int) string {
	if g < 0 {
		return ""
	}
	return C.GoString(C.mj_id2name(p.m, C.mjOBJ_GEOM, C.int(g)))
}
