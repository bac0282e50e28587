package faultserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Recorder keeps the record of one fault server process in Dir: its
// motions (ActiveDir, OverlapFile) and its log (LogFile). A fault server
// over another transport records through it, so the fault suite reads
// every transport's record alike.
type Recorder struct {
	Dir string

	mu  sync.Mutex
	seq int
}

// Logf appends a line to the log.
func (r *Recorder) Logf(format string, args ...any) {
	fh, err := os.OpenFile(filepath.Join(r.Dir, LogFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
		return
	}
	defer fh.Close()
	fmt.Fprintf(fh, format+"\n", args...)
}

// Begin records a motion and any other motion still active (in any process
// still alive); it returns the motion's file, for End.
func (r *Recorder) Begin() string {
	r.mu.Lock()
	r.seq++
	n := r.seq
	r.mu.Unlock()
	dir := filepath.Join(r.Dir, ActiveDir)
	_ = os.MkdirAll(dir, 0o755)
	me := filepath.Join(dir, fmt.Sprintf("%d-%d", os.Getpid(), n))
	if err := os.WriteFile(me, nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
	}
	if others := Active(r.Dir); len(others) > 1 {
		fh, err := os.OpenFile(filepath.Join(r.Dir, OverlapFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(fh, "%s began while %s were active\n", filepath.Base(me), strings.Join(others, ","))
			_ = fh.Close()
		}
	}
	r.Logf("start %s", filepath.Base(me))
	return me
}

// End records the end of the motion Begin returned.
func (r *Recorder) End(me string, stopped bool) {
	_ = os.Remove(me)
	r.Logf("end %s stopped=%v", filepath.Base(me), stopped)
}

// Gate returns a channel that fires once GateFile exists in the directory,
// or never once stop is closed (the caller's select sees the stop too).
func (r *Recorder) Gate(stop <-chan struct{}) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := os.Stat(filepath.Join(r.Dir, GateFile)); err == nil {
				ch <- time.Now()
				return
			}
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()
	return ch
}

// Active lists the motions in progress in dir, ignoring those of dead
// processes (a killed back-end's motion ended with it).
func Active(dir string) []string {
	entries, err := os.ReadDir(filepath.Join(dir, ActiveDir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		pid, _, _ := strings.Cut(e.Name(), "-")
		if p, err := strconv.Atoi(pid); err == nil && alive(p) {
			out = append(out, e.Name())
		}
	}
	return out
}

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust kill
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
