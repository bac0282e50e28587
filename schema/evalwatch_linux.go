//go:build linux

package schema

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"syscall"
	"time"
)

// evalRSSSlack is the evaluator's memory beyond its Go heap that the
// backstop allows: the binary, the runtime, the collector's overhead.
const evalRSSSlack = 256 << 20

// evalProcAttr has the kernel kill the evaluator when the thread that
// started it dies, so a killed parent leaves no evaluation running.
func evalProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// watchRSS is the backstop behind the evaluator's own watch of its heap: it
// kills the process when its resident memory passes ceiling, and sends the
// resident size it saw then, or 0 once ctx is done.
func watchRSS(ctx context.Context, p *os.Process, ceiling int64) <-chan int64 {
	out := make(chan int64, 1)
	statm := "/proc/" + strconv.Itoa(p.Pid) + "/statm"
	page := int64(os.Getpagesize())
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				out <- 0
				return
			case <-tick.C:
			}
			b, err := os.ReadFile(statm)
			if err != nil {
				continue // not started yet, or ended: Wait says which
			}
			f := bytes.Fields(b)
			if len(f) < 2 {
				continue
			}
			pages, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err == nil && pages*page > ceiling {
				_ = p.Kill() // it may have ended already; Wait reports that
				out <- pages * page
				return
			}
		}
	}()
	return out
}
