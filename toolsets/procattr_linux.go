//go:build linux

package toolsets

import "syscall"

// procAttr puts a stdio back-end in its own process group (Close ends
// grandchildren too) and has the kernel SIGKILL it when the thread that
// started it dies: with the spawner's thread, that is when the toolset is
// closed or the harness process dies, even by kill -9.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
