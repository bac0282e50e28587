//go:build mujoco && cgo

#ifndef THEA_RENDER_H
#define THEA_RENDER_H
#include <EGL/egl.h>
#include <mujoco/mujoco.h>

typedef struct {
	EGLDisplay display;
	EGLContext context;
} thea_egl;

typedef struct {
	mjvCamera cam;
	mjvOption opt;
	mjvScene scn;
	mjrContext con;
} thea_view;

int thea_egl_open(thea_egl *e, char *err, int errsz);
void thea_egl_close(thea_egl *e);
int thea_view_open(const mjModel *m, thea_view *v);
void thea_view_close(thea_view *v);
int thea_render(const mjModel *m, mjData *d, thea_view *v, int cam, int w, int h, unsigned char *rgb);

#endif
