//go:build !linux

package toolsets

import "syscall"

// procAttr puts a stdio back-end in its own process group. There is no
// parent-death signal outside Linux: a back-end must exit when its stdin
// closes (the harness's death closes it).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
