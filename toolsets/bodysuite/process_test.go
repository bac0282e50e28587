package bodysuite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// harnessEnv makes the test binary a helper harness process (see
// harnessMain) for the cross-process tests, driving the transport
// harnessTransportEnv names.
const (
	harnessEnv          = "THEA_TOOLSETS_HARNESS"
	harnessTransportEnv = "THEA_TOOLSETS_HARNESS_TRANSPORT"
	// harnessDirEnv is the fault directory a helper harness uses; it writes
	// its results there too.
	harnessDirEnv  = "THEA_TOOLSETS_HARNESS_DIR"
	harnessLockEnv = "THEA_TOOLSETS_HARNESS_LOCK" // the body lock's directory
)

// harnessMain is a helper harness process. Modes:
//   - "hold": start the back-end, print its pid to <dir>/backend.pid, block;
//   - "drive": run five 15ms motions, then exit;
//   - "long": run one motion that lasts until the test calls release, then exit.
func harnessMain(mode string) int {
	dir := os.Getenv(harnessDirEnv)
	var tr transport
	for _, t := range transports() {
		if t.name == os.Getenv(harnessTransportEnv) {
			tr = t
		}
	}
	if tr.kind == nil {
		fmt.Fprintln(os.Stderr, "unknown transport", os.Getenv(harnessTransportEnv))
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	spec := faultSpec(tr, self, dir, "base")
	spec.Embodiment = schema.Embodiment{Name: "shared-body", Lock: schema.BodyLock{Dir: os.Getenv(harnessLockEnv), Mode: "wait"}}
	spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
	if mode == "hold" {
		ts := spec.Toolsets["base"]
		tr.linger(&ts)
		spec.Toolsets["base"] = ts
	}
	ctx := context.Background()
	ts, err := start(ctx, tr, spec, "base", body.Shared{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ts.Close()
	move := func(args string) runlog.Envelope {
		tools, _ := ts.Tools(ctx)
		for _, tl := range tools {
			if tl.Def().Name == "move_base" {
				return tl.Call(callgate.Through(ctx), json.RawMessage(args))
			}
		}
		return runlog.Failure("no move_base")
	}
	switch mode {
	case "hold":
		tools, _ := ts.Tools(ctx)
		for _, tl := range tools {
			if tl.Def().Name == "pid" {
				env := tl.Call(callgate.Through(ctx), json.RawMessage(`{}`))
				pid := fmt.Sprint(env.Value["pid"])
				if err := os.WriteFile(filepath.Join(dir, "backend.pid"), []byte(pid), 0o644); err != nil {
					fmt.Fprintln(os.Stderr, err)
					return 2
				}
			}
		}
		select {} // until killed
	case "long":
		if env := move(`{"ms":0,"fault":"gate"}`); !env.Success {
			fmt.Fprintln(os.Stderr, "move failed:", env.Reason)
			return 1
		}
		return 0
	case "drive":
		for range 5 {
			if env := move(`{"ms":15}`); !env.Success {
				fmt.Fprintln(os.Stderr, "move failed:", env.Reason)
				return 1
			}
		}
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// helper starts this test binary as a helper harness process (harnessMain).
func helper(t *testing.T, tr transport, mode, dir, lockDir string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), harnessEnv+"="+mode, harnessTransportEnv+"="+tr.name, harnessDirEnv+"="+dir, harnessLockEnv+"="+lockDir)
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
	eachTransport(t, func(t *testing.T, tr transport) {
		dir, lockDir := t.TempDir(), t.TempDir()
		reapFaultServers(t, dir)
		a, aerr := helper(t, tr, "drive", dir, lockDir)
		b, berr := helper(t, tr, "drive", dir, lockDir)
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
	})
}

// With lock mode refuse, a second process's physical call fails at once
// naming the holder; with mode none (the control) the server does see two
// motions at once, so the overlap check can fail.
func TestSecondProcessRefusedOrOverlaps(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		self, dir := newFaultDir(t)
		lockDir := t.TempDir()
		a, aerr := helper(t, tr, "long", dir, lockDir)
		testtime.Wait(t, "the first harness moving", func() bool { return len(faultserver.Active(dir)) > 0 })
		spec := faultSpec(tr, self, dir, "base")
		spec.Tools["base.move_base"] = schema.ToolContract{Physical: true}
		spec.Embodiment = schema.Embodiment{Name: "shared-body", Lock: schema.BodyLock{Dir: lockDir, Mode: "refuse"}}
		ts := startFault(t, tr, spec, "base", body.Shared{})
		wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "another process (pid "+strconv.Itoa(a.Process.Pid), "is driving this body")
		noOverlaps(t, dir)

		spec.Embodiment.Lock.Mode = "none"
		free := startFault(t, tr, spec, "base", body.Shared{})
		wantSuccess(t, call(t, free, "move_base", `{"ms":1}`))
		release(t, dir) // the first harness's motion ends only now
		if err := a.Wait(); err != nil {
			t.Fatalf("first harness: %v: %s", err, aerr)
		}
		if _, err := os.Stat(filepath.Join(dir, faultserver.OverlapFile)); err != nil {
			t.Fatal("without the body lock the overlap went unseen: the check cannot fail")
		}
	})
}

// kill -9 of the harness ends its stdio back-end (parent-death signal).
func TestKill9EndsBackend(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		if !tr.spawns {
			t.Skip("the toolset does not start its back-end")
		}
		dir := t.TempDir()
		reapFaultServers(t, dir)
		h, herr := helper(t, tr, "hold", dir, t.TempDir())
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
	})
}

// gone reports whether pid no longer runs (a zombie counts as gone).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] == "Z"
}
