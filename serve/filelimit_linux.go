package serve

import (
	"fmt"
	"syscall"
)

// RaiseFileLimit raises the process's soft open-file limit to its hard
// limit (the Go runtime does so at start-up; an embedding program may have
// lowered it since) and returns the soft limit now in force, which Serve
// keeps its connection bound well below.
func RaiseFileLimit() (uint64, error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, fmt.Errorf("reading the open-file limit: %w", err)
	}
	if r.Cur >= r.Max {
		return r.Cur, nil
	}
	raised := syscall.Rlimit{Cur: r.Max, Max: r.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err != nil {
		return r.Cur, fmt.Errorf("raising the open-file limit from %d to %d: %w", r.Cur, r.Max, err)
	}
	return raised.Cur, nil
}

// openFileLimit is the soft open-file limit, 0 when unknown.
func openFileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	return r.Cur
}
