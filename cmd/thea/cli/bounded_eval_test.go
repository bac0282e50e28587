//go:build linux

package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
)

// hostileSpecs are small CUE files whose evaluation has no end in memory
// or time: before evaluation was bounded, `thea validate` on the first ran
// the machine out of memory.
func hostileSpecs() map[string]string {
	var str, list strings.Builder
	str.WriteString("a0: \"xxxxxxxx\"\n")
	list.WriteString("import \"list\"\n\nl0: [1, 2, 3, 4, 5, 6, 7, 8]\n")
	for i := 1; i <= 26; i++ {
		fmt.Fprintf(&str, "a%d: a%d + a%d\n", i, i-1, i-1)
		fmt.Fprintf(&list, "l%d: list.Concat([l%d, l%d])\n", i, i-1, i-1)
	}
	return map[string]string{
		"string-doubling": str.String(),
		"list-doubling":   list.String(),
		"range":           "import \"list\"\n\nx: [for i in list.Range(0, 1e9, 1) {i}]\n",
		// One allocation of 8 TB: the Go runtime's fatal "out of memory",
		// which no recover catches.
		"repeat": "a: \"xxxxxxxx\" * 1000000\nb: a * 1000000\n",
	}
}

// TestHostileSpecEvaluationIsBounded: each hostile spec is refused with a
// diagnostic naming the file and the bound, by validate and by run alike
// (one load path). The thea process runs under a guard of its own (a
// memory ceiling over its whole process group, and a deadline), so a
// regression fails this test instead of taking the machine.
func TestHostileSpecEvaluationIsBounded(t *testing.T) {
	dir := t.TempDir()
	specs := hostileSpecs()
	// Sequential: at most one evaluator near its bound at a time on a
	// shared machine.
	for _, name := range slices.Sorted(maps.Keys(specs)) {
		file := filepath.Join(dir, name+".cue")
		if err := os.WriteFile(file, []byte(specs[name]), 0o600); err != nil {
			t.Fatal(err)
		}
		args := [][]string{{"validate", file}}
		if name == "string-doubling" {
			args = append(args, []string{"run", "--spec", file, "a task"})
		}
		for _, a := range args {
			t.Run(name+"/"+a[0], func(t *testing.T) {
				out, err := runGuarded(t, a)
				want := file + ": evaluating the spec took "
				if err == nil || !strings.Contains(out, want) || !strings.Contains(out, "the bound on a spec's evaluation") {
					t.Fatalf("thea %s: %v, output:\n%s\nwant a line starting %q", strings.Join(a, " "), err, out, want)
				}
			})
		}
	}
}

// guardRSS is the guard's ceiling on the thea process and its evaluator
// together: the evaluator is stopped near 1.3 GiB (its heap bound and the
// RSS backstop); the race detector's shadow memory adds to that.
const guardRSS = 3 << 30

// runGuarded runs this test binary as thea with args, in a process group
// the test kills when it passes guardRSS or the deadline.
func runGuarded(t *testing.T, args []string) (string, error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(schema.MaxEvalWall))
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var overRSS atomic.Int64
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if rss := groupRSS(cmd.Process.Pid); rss > guardRSS {
				overRSS.Store(rss)
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			}
		}
	}()
	err = cmd.Wait()
	close(stop)
	<-watched
	if rss := overRSS.Load(); rss > 0 {
		t.Fatalf("thea %s: killed by the test's guard at %d MiB resident: the evaluation is not bounded in memory", strings.Join(args, " "), rss>>20)
	}
	if ctx.Err() != nil {
		t.Fatalf("thea %s: killed by the test's guard after %v: the evaluation is not bounded in time", strings.Join(args, " "), testtime.Scale(schema.MaxEvalWall))
	}
	return out.String(), err
}

// groupRSS is the resident memory, in bytes, of the processes in process
// group pgid.
func groupRSS(pgid int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	page := int64(os.Getpagesize())
	var total int64
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		// After "pid (comm) ": state ppid pgrp ... with rss the 22nd field
		// after the command.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 22 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		total += pages * page
	}
	return total
}
