//go:build mujoco && cgo

package main

/*
#cgo LDFLAGS: -lmujoco -lEGL
#include <stdlib.h>
#include "render.h"
int thea_try_view_open(const mjModel *m, thea_view *v);
const char *thea_last_error(void);
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"unsafe"
)

// renderer draws the scene's cameras offscreen through EGL. It is bound to
// the OS thread that made it (the simulator's locked goroutine).
type renderer struct {
	egl  C.thea_egl
	view *C.thea_view // in C memory: MuJoCo keeps pointers into it
	w, h int
	rgb  []byte
	enc  png.Encoder
}

func newRenderer(p *physics, w, h int) (*renderer, error) {
	if w < 16 || h < 16 || w > 640 || h > 480 {
		return nil, fmt.Errorf("image size %d×%d: want 16×16 to 640×480 (the scene's offscreen buffer)", w, h)
	}
	r := &renderer{w: w, h: h, rgb: make([]byte, 3*w*h), enc: png.Encoder{CompressionLevel: png.BestSpeed}}
	var buf [512]C.char
	if C.thea_egl_open(&r.egl, &buf[0], C.int(len(buf))) != 0 {
		return nil, fmt.Errorf("headless OpenGL through EGL: %s (install libegl-mesa0 and libgl1-mesa-dri)", C.GoString(&buf[0]))
	}
	r.view = (*C.thea_view)(C.calloc(1, C.size_t(unsafe.Sizeof(C.thea_view{}))))
	if r.view == nil {
		C.thea_egl_close(&r.egl)
		return nil, errors.New("out of memory for the render context")
	}
	if C.thea_try_view_open(p.m, r.view) != 0 {
		msg := C.GoString(C.thea_last_error())
		r.close()
		return nil, fmt.Errorf("MuJoCo's render context: %s", msg)
	}
	return r, nil
}

// rebind replaces MuJoCo's render context with one for p's model (a reset
// builds a new model) on the same EGL context. A second EGL context would
// share the first's display, and closing the first unbinds the second and
// terminates the display under it: every frame after came back blank. The
// new render context is made before the old is freed, so on an error the
// renderer still draws the old model.
func (r *renderer) rebind(p *physics) error {
	v := (*C.thea_view)(C.calloc(1, C.size_t(unsafe.Sizeof(C.thea_view{}))))
	if v == nil {
		return errors.New("out of memory for the render context")
	}
	if C.thea_try_view_open(p.m, v) != 0 {
		msg := C.GoString(C.thea_last_error())
		C.thea_view_close(v)
		C.free(unsafe.Pointer(v))
		return fmt.Errorf("MuJoCo's render context: %s", msg)
	}
	C.thea_view_close(r.view)
	C.free(unsafe.Pointer(r.view))
	r.view = v
	return nil
}

func (r *renderer) close() {
	if r.view != nil {
		C.thea_view_close(r.view)
		C.free(unsafe.Pointer(r.view))
		r.view = nil
	}
	C.thea_egl_close(&r.egl)
}

// png renders camera and encodes it at the fastest compression (the
// default costs more than the render). OpenGL's rows come bottom-up.
func (r *renderer) png(p *physics, camera string) ([]byte, error) {
	cam, err := p.id(C.mjOBJ_CAMERA, camera)
	if err != nil {
		return nil, err
	}
	C.thea_render(p.m, p.d, r.view, C.int(cam), C.int(r.w), C.int(r.h), (*C.uchar)(unsafe.Pointer(&r.rgb[0])))
	img := image.NewNRGBA(image.Rect(0, 0, r.w, r.h))
	for y := range r.h {
		src := r.rgb[(r.h-1-y)*r.w*3:]
		dst := img.Pix[y*img.Stride:]
		for x := range r.w {
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = src[3*x], src[3*x+1], src[3*x+2], 255
		}
	}
	var out bytes.Buffer
	if err := r.enc.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("encode %s: %w", camera, err)
	}
	return out.Bytes(), nil
}
