package toolsets

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/body"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// helper starts this test binary as a helper harness process (harnessMain).
func helper(t *testing.T, mode, dir, lockDir string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), harnessEnv+"="+mode, harnessDirEnv+"="+dir, harnessLockEnv+"="+lockDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, &stderr
}

// Two harness processes declaring the same body, each with its own back-end,
// never run physical calls at the same time: the body's file lock serialises
// them.
func TestTwoProcessesOneBody(t *testing.T) {
	dir, lockDir := t.TempDir(), t.TempDir()
	a, aerr := helper(t, "drive", dir, lockDir)
	b, berr := helper(t, "drive", dir, lockDir)
	if err := a.Wait(); err != nil {
		t.Fatalf("first harness: %v: %s", err, aerr)
	}
	if err := b.Wait(); err != nil {
		t.Fatalf("second harness: %v: %s", err, berr)
	}
	if n := logLines(t, dir, "start"); n != 10 {
		t.Fatalf("motions = %d, want 10", n)
	}
	noOverlaps(t, dir)
}

// With lock mode refuse, a second process's physical call fails at once
// naming the holder; with mode none (the control) the server does see two
// motions at once, so the overlap check can fail.
func TestSecondProcessRefusedOrOverlaps(t *testing.T) {
	self, dir := newFaultDir(t)
	lockDir := t.TempDir()
	a, aerr := helper(t, "long", dir, lockDir)
	testtime.Wait(t, "the first harness moving", func() bool { return len(faultserver.Active(dir)) > 0 })
	spec := faultSpec(self, dir, "base")
	spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
	spec.Embodiment = schema.Embodiment{Name: "shared-body", Lock: schema.BodyLock{Dir: lockDir, Mode: "refuse"}}
	ts := startFault(t, spec, "base", body.Deps{})
	wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "another process (pid "+strconv.Itoa(a.Process.Pid), "is driving this body")
	noOverlaps(t, dir)

	spec.Embodiment.Lock.Mode = "none"
	free := startFault(t, spec, "base", body.Deps{})
	wantSuccess(t, call(t, free, "move_base", `{"ms":1}`))
	release(t, dir) // the first harness's motion ends only now
	if err := a.Wait(); err != nil {
		t.Fatalf("first harness: %v: %s", err, aerr)
	}
	if _, err := os.Stat(filepath.Join(dir, faultserver.OverlapFile)); err != nil {
		t.Fatal("without the body lock the overlap went unseen: the check cannot fail")
	}
}

// kill -9 of the harness ends its stdio back-end (parent-death signal).
func TestKill9EndsBackend(t *testing.T) {
	dir := t.TempDir()
	h, herr := helper(t, "hold", dir, t.TempDir())
	pidFile := filepath.Join(dir, "backend.pid")
	waitFile(t, pidFile)
	var pid int
	for range 200 { // the file may be seen before it is written
		b, _ := os.ReadFile(pidFile)
		if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			pid = p
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if pid == 0 || gone(pid) {
		t.Fatalf("back-end pid %d not running: %s", pid, herr)
	}
	if err := h.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.Wait()
	testtime.Wait(t, fmt.Sprintf("back-end %d ending after kill -9 of its harness", pid), func() bool { return gone(pid) })
}
