//go:build !linux

package bodysuite_test

import "syscall"

// dieWithParent: without a parent-death signal, a helper ends when its
// directory is gone.
func dieWithParent() *syscall.SysProcAttr { return nil }
