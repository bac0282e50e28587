package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// The resume chaos test for thea serve: the same kill points and checks
// as thea run's (runChaos), with the task posted to /v1/tasks, the
// process killed at event k, and `thea serve --resume` continuing it.

// serveThea starts this binary as thea serve on a free loopback port in
// the case's folder and returns its base URL and its exit.
func (c *resumeCase) serveThea(t *testing.T, env []string, args ...string) (string, *exec.Cmd, chan error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"serve", "--spec", "spec.cue", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = c.dir
	cmd.Env = append(append(os.Environ(), ptyMainEnv+"=1", killEnv+"=", "THEA_SERVE_TOKEN="), env...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // a no-op once it exited
		if t.Failed() {
			t.Logf("thea serve %v:\n%s", args, out.String())
		}
	})
	var url string
	testtime.Wait(t, "thea serve's address", func() bool {
		if m := serveAddr.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
			return true
		}
		return false
	})
	return url, cmd, exited
}

var serveAddr = regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)`)

// postTask posts the household task. A process killed at its first events
// may die before it answers, so a failed request is not an error here: the
// caller checks how the process ended.
func postTask(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Post(url+"/v1/tasks", "application/json", strings.NewReader(fmt.Sprintf(`{"instruction": %q}`, mugTask)))
	if err != nil {
		t.Logf("POST /v1/tasks: %v", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST /v1/tasks: %s", resp.Status)
	}
}

// serveUntilDone waits for the task's done event in dir, then stops thea
// serve with SIGINT, which must exit cleanly.
func serveUntilDone(t *testing.T, dir string, cmd *exec.Cmd, exited chan error) {
	t.Helper()
	var size int64 = -1
	testtime.Wait(t, "the task's done event", func() bool {
		select {
		case err := <-exited:
			t.Fatalf("thea serve exited before the task was done: %v", err)
		default:
		}
		// Parse only when the run log grew: the poll is cheap while the
		// task runs.
		fi, err := os.Stat(filepath.Join(dir, runlog.EventsFile))
		if err != nil || fi.Size() == size {
			return false
		}
		size = fi.Size()
		lines := readLinesSoFar(dir)
		return len(lines) > 0 && lines[len(lines)-1].Kind == runlog.EventDone
	})
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Errorf("thea serve after the task: %v", err)
	}
}

// TestServeResumeAfterKillAtEveryEvent kills thea serve with SIGKILL at
// every event of the household task in turn and resumes it with
// `thea serve --resume`.
func TestServeResumeAfterKillAtEveryEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs thea serve twice per kill point")
	}
	runChaos(t, chaosFront{
		reference: func(t *testing.T, c *resumeCase) {
			url, cmd, exited := c.serveThea(t, nil)
			postTask(t, url)
			// The run directory appears when the task starts.
			var dir string
			testtime.Wait(t, "the task's run directory", func() bool {
				dirs, _ := filepath.Glob(filepath.Join(c.dir, ".thea", "runs", "*"))
				if len(dirs) == 1 {
					dir = dirs[0]
				}
				return dir != ""
			})
			serveUntilDone(t, dir, cmd, exited)
		},
		kill: func(t *testing.T, c *resumeCase, k int) {
			url, _, exited := c.serveThea(t, []string{killEnv + "=" + strconv.Itoa(k)})
			postTask(t, url)
			var ee *exec.ExitError
			if err := <-exited; !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("thea serve, to be killed at event %d, ended with %v", k, err)
			}
		},
		resume: func(t *testing.T, c *resumeCase, dir string) {
			_, cmd, exited := c.serveThea(t, nil, "--resume", dir)
			serveUntilDone(t, dir, cmd, exited)
		},
		resumeArgs: func(dir string) []string {
			return []string{"serve", "--spec", "spec.cue", "--addr", "127.0.0.1:0", "--resume", dir}
		},
	})
}

// readLinesSoFar reads a run log being written: whole lines only.
func readLinesSoFar(dir string) []runlog.Line {
	b, err := os.ReadFile(filepath.Join(dir, runlog.EventsFile))
	if err != nil {
		return nil
	}
	var out []runlog.Line
	for rec, err := range runlog.Parse(dir, b[:bytes.LastIndexByte(b, '\n')+1], readfile.RunLog) {
		if err != nil {
			return nil
		}
		l, err := rec.Line()
		if err != nil {
			return nil
		}
		out = append(out, l)
	}
	return out
}

// TestServeResumeRefusesAnEndedTask: `thea serve --resume` of a task whose
// run log ended says there is nothing to resume and exits before it
// listens, as `thea run --resume` does, instead of serving a session
// whose resumed task fails.
func TestServeResumeRefusesAnEndedTask(t *testing.T) {
	c := newResumeCase(t)
	if out, code, _ := c.thea(t, nil, "run", "--spec", "spec.cue", mugTask); code != 0 {
		t.Fatalf("the task: exit %d\n%s", code, out)
	}
	dir := c.runDir(t)
	for _, args := range [][]string{
		{"serve", "--spec", "spec.cue", "--addr", "127.0.0.1:0", "--resume", dir},
		{"run", "--spec", "spec.cue", "--resume", dir},
	} {
		out, code, _ := c.thea(t, nil, args...)
		if code == 0 || !strings.Contains(out, "nothing to resume") || serveAddr.MatchString(out) {
			t.Errorf("thea %s --resume of an ended task: exit %d\n%s", args[0], code, out)
		}
	}
}
