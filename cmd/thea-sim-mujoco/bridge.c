//go:build mujoco && cgo

// MuJoCo calls mju_user_error on a bad model or a diverging simulation and,
// without a handler, exits the process. These wrappers catch it with
// setjmp/longjmp (per thread) and return the message to Go instead.
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include "bridge.h"

static __thread jmp_buf *thea_jb;
static __thread char thea_msg[1024];
static __thread char thea_warn[1024];

static void thea_on_error(const char *msg) {
	snprintf(thea_msg, sizeof thea_msg, "%s", msg);
	if (thea_jb) longjmp(*thea_jb, 1);
}

static void thea_on_warning(const char *msg) {
	snprintf(thea_warn, sizeof thea_warn, "%s", msg);
}

void thea_install_handlers(void) {
	mju_user_error = thea_on_error;
	mju_user_warning = thea_on_warning;
}

const char *thea_last_error(void) { return thea_msg; }

const char *thea_take_warning(void) {
	static __thread char out[1024];
	snprintf(out, sizeof out, "%s", thea_warn);
	thea_warn[0] = 0;
	return out;
}

mjModel *thea_load_xml(const char *xml, char *err, int errsz) {
	mjVFS *vfs = (mjVFS *)mju_malloc(sizeof(mjVFS));
	mjModel *m = NULL;
	jmp_buf jb;
	jmp_buf *prev = thea_jb;
	if (!vfs) {
		snprintf(err, errsz, "out of memory for the model's file system");
		return NULL;
	}
	mj_defaultVFS(vfs);
	int n = (int)strlen(xml);
	if (mj_makeEmptyFileVFS(vfs, "scene.xml", n) != 0) {
		snprintf(err, errsz, "cannot hold the scene in memory");
		mju_free(vfs);
		return NULL;
	}
	memcpy(vfs->filedata[mj_findFileVFS(vfs, "scene.xml")], xml, n);
	thea_jb = &jb;
	if (setjmp(jb) == 0) {
		m = mj_loadXML("scene.xml", vfs, err, errsz);
	} else {
		snprintf(err, errsz, "%s", thea_msg);
		m = NULL;
	}
	thea_jb = prev;
	mj_deleteVFS(vfs);
	mju_free(vfs);
	return m;
}

mjData *thea_make_data(const mjModel *m) {
	mjData *d = NULL;
	jmp_buf jb;
	jmp_buf *prev = thea_jb;
	thea_jb = &jb;
	if (setjmp(jb) == 0) d = mj_makeData(m);
	thea_jb = prev;
	return d;
}

int thea_step(const mjModel *m, mjData *d, int n) {
	jmp_buf jb;
	jmp_buf *prev = thea_jb;
	int rc = 0;
	thea_jb = &jb;
	if (setjmp(jb) == 0) {
		for (int i = 0; i < n; i++) mj_step(m, d);
	} else {
		rc = -1;
	}
	thea_jb = prev;
	return rc;
}

int thea_forward(const mjModel *m, mjData *d) {
	jmp_buf jb;
	jmp_buf *prev = thea_jb;
	int rc = 0;
	thea_jb = &jb;
	if (setjmp(jb) == 0) mj_forward(m, d);
	else rc = -1;
	thea_jb = prev;
	return rc;
}

#include "render.h"

// thea_try_view_open makes MuJoCo's render context (a MuJoCo error, such
// as a missing OpenGL function, comes back as -1).
int thea_try_view_open(const mjModel *m, thea_view *v) {
	jmp_buf jb;
	jmp_buf *prev = thea_jb;
	int rc = -1;
	thea_jb = &jb;
	if (setjmp(jb) == 0) rc = thea_view_open(m, v);
	else snprintf(thea_warn, sizeof thea_warn, "%s", thea_msg);
	thea_jb = prev;
	return rc;
}
