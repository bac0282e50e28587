//go:build mujoco && cgo

// A headless OpenGL context through EGL (Mesa's llvmpipe without a GPU or
// a display), made current on the calling thread, for MuJoCo's renderer.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <string.h>
#include "render.h"

static EGLDisplay thea_display(void) {
	PFNEGLGETPLATFORMDISPLAYEXTPROC get =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (get) {
		EGLDisplay d = get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
		if (d != EGL_NO_DISPLAY) return d;
	}
	return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

int thea_egl_open(thea_egl *e, char *err, int errsz) {
	memset(e, 0, sizeof *e);
	e->display = thea_display();
	if (e->display == EGL_NO_DISPLAY) {
		snprintf(err, errsz, "no EGL display");
		return -1;
	}
	EGLint major, minor;
	if (!eglInitialize(e->display, &major, &minor)) {
		snprintf(err, errsz, "eglInitialize failed (0x%x)", eglGetError());
		return -1;
	}
	const EGLint attrs[] = {
		EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
		EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
		EGL_NONE};
	EGLConfig cfg;
	EGLint n = 0;
	if (!eglChooseConfig(e->display, attrs, &cfg, 1, &n) || n < 1) {
		// The surfaceless platform may offer no pbuffer config; render to
		// MuJoCo's own offscreen framebuffer without a surface.
		const EGLint none[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
		if (!eglChooseConfig(e->display, none, &cfg, 1, &n) || n < 1) {
			snprintf(err, errsz, "no EGL config for desktop OpenGL (0x%x)", eglGetError());
			eglTerminate(e->display);
			return -1;
		}
	}
	if (!eglBindAPI(EGL_OPENGL_API)) {
		snprintf(err, errsz, "eglBindAPI(OpenGL) failed (0x%x)", eglGetError());
		eglTerminate(e->display);
		return -1;
	}
	e->context = eglCreateContext(e->display, cfg, EGL_NO_CONTEXT, NULL);
	if (e->context == EGL_NO_CONTEXT) {
		snprintf(err, errsz, "eglCreateContext failed (0x%x)", eglGetError());
		eglTerminate(e->display);
		return -1;
	}
	if (!eglMakeCurrent(e->display, EGL_NO_SURFACE, EGL_NO_SURFACE, e->context)) {
		snprintf(err, errsz, "eglMakeCurrent failed (0x%x)", eglGetError());
		eglDestroyContext(e->display, e->context);
		eglTerminate(e->display);
		return -1;
	}
	return 0;
}

void thea_egl_close(thea_egl *e) {
	if (e->display == EGL_NO_DISPLAY || e->display == NULL) return;
	eglMakeCurrent(e->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (e->context != EGL_NO_CONTEXT) eglDestroyContext(e->display, e->context);
	eglTerminate(e->display);
	e->display = NULL;
}

int thea_render(const mjModel *m, mjData *d, thea_view *v, int cam, int w, int h, unsigned char *rgb) {
	v->cam.type = mjCAMERA_FIXED;
	v->cam.fixedcamid = cam;
	mjv_updateScene(m, d, &v->opt, NULL, &v->cam, mjCAT_ALL, &v->scn);
	mjrRect rect = {0, 0, w, h};
	mjr_setBuffer(mjFB_OFFSCREEN, &v->con);
	mjr_render(rect, &v->scn, &v->con);
	mjr_readPixels(rgb, NULL, rect, &v->con);
	return 0;
}

int thea_view_open(const mjModel *m, thea_view *v) {
	mjv_defaultCamera(&v->cam);
	mjv_defaultOption(&v->opt);
	mjv_defaultScene(&v->scn);
	mjr_defaultContext(&v->con);
	mjv_makeScene(m, &v->scn, 1000);
	mjr_makeContext(m, &v->con, mjFONTSCALE_100);
	if (!v->con.offFBO) return -1;
	return 0;
}

void thea_view_close(thea_view *v) {
	mjr_freeContext(&v->con);
	mjv_freeScene(&v->scn);
}
