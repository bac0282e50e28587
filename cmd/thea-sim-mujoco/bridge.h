//go:build mujoco && cgo

#ifndef THEA_BRIDGE_H
#define THEA_BRIDGE_H
#include <mujoco/mujoco.h>

void thea_install_handlers(void);
const char *thea_last_error(void);
const char *thea_take_warning(void);
mjModel *thea_load_xml(const char *xml, char *err, int errsz);
mjData *thea_make_data(const mjModel *m);
int thea_step(const mjModel *m, mjData *d, int n);
int thea_forward(const mjModel *m, mjData *d);

#endif
