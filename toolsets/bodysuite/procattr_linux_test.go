package bodysuite_test

import "syscall"

// dieWithParent ends a helper process when the process that started it
// dies, however it dies.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
