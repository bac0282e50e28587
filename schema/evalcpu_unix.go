//go:build unix

package schema

import (
	"syscall"
	"time"
)

// evalCPU is the CPU time this process has used: the evaluation's time
// bound counts work, not waiting, so a loaded machine does not fail an
// honest spec.
func evalCPU(time.Time) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0 // the parent's wall-clock deadline still bounds it
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
