package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/thea-harness/thea/internal/testtime"
)

// ptyMainEnv makes the test binary the thea process (cli.Main: SIGINT
// delivered to the App as a signal), so a pseudo-terminal can drive it.
const ptyMainEnv = "THEA_TEST_PTY_MAIN"

// ptyDeadline bounds every wait for output: a broken session fails the test
// instead of hanging it. It is not a timing assertion.
var ptyDeadline = testtime.Scale(60 * time.Second)

// ptySession is a thea process on a pseudo-terminal: its stdin, stdout and
// stderr are the terminal, and it is the terminal's foreground process, so
// writing ^C to the terminal makes the kernel send it a real SIGINT.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  strings.Builder
	seen int // offset after the last expected match
	exit chan error
}

func startPTY(t *testing.T, dir string, args ...string) *ptySession {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, tty: tty, exit: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { s.exit <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // a no-op when it has exited
		_ = tty.Close()
		if t.Failed() || os.Getenv("THEA_TEST_PTY_DUMP") != "" {
			t.Logf("terminal output:\n%s", s.plain())
		}
	})
	return s
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// plain is the output so far without the live view's ANSI codes.
func (s *ptySession) plain() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(ansi.ReplaceAllString(s.out.String(), ""), "\r", "")
}

// expect waits until want appears after the previous match, and returns the
// output between them.
func (s *ptySession) expect(want string) string {
	s.t.Helper()
	for deadline := time.Now().Add(ptyDeadline); ; time.Sleep(10 * time.Millisecond) {
		out := s.plain()
		if i := strings.Index(out[s.seen:], want); i >= 0 {
			between := out[s.seen : s.seen+i]
			s.seen += i + len(want)
			return between
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q in the terminal output after %s", want, ptyDeadline)
		}
	}
}

func (s *ptySession) send(text string) {
	s.t.Helper()
	if _, err := s.tty.WriteString(text); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the process to exit and returns its exit code.
func (s *ptySession) wait() int {
	s.t.Helper()
	select {
	case err := <-s.exit:
		if err == nil {
			return 0
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		s.t.Fatal(err)
	case <-time.After(ptyDeadline):
		s.t.Fatal("thea did not exit")
	}
	return -1
}

// ptyRobot scaffolds a mobile robot whose back-end moves slowly (0.05 m/s)
// and logs what it receives, with a scripted model for the session below.
func ptyRobot(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the back-end stub cannot run")
	}
	dir := filepath.Join(t.TempDir(), "bot")
	if code, _, errs := run(t, "init", "bot", "--body", "mobile", "--dir", dir); code != 0 {
		t.Fatal(errs)
	}
	spec := filepath.Join(dir, "spec.cue")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	slow := strings.Replace(string(b), `command: ["python3", "server.py"]`,
		`command: ["/bin/sh", "-c", "exec '`+python+`' server.py 2>>backend.log"]`+"\n\t\tenv: SPEED: \"0.05\"", 1)
	if slow == string(b) {
		t.Fatal("the scaffolded spec has no python3 command to patch")
	}
	episode := `
- tool_calls: [{name: query_user, arguments: {question: "Which colour?", choices: [red, blue]}}]
- text: "You chose it."
- text: "A slow move."
  tool_calls: [{name: move_base, arguments: {direction: forward, distance_m: 0.5}}]
- text: "Another slow move."
  tool_calls: [{name: move_base, arguments: {direction: forward, distance_m: 0.25}}]
- text: "Revised and done."
`
	for name, body := range map[string]string{"spec.cue": slow, "episode.yaml": episode} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The interactive session through a real terminal: an instruction whose
// query_user is answered at the terminal (the typed line goes to the
// question, not to the session); Ctrl-C as a real SIGINT stopping a slow
// motion, whose back-end's stop tool the harness calls at once, while the
// session survives; /replan revising a running task; /reset, /clear and a
// plain line while a task runs; Ctrl-D leaving.
func TestInteractiveSessionPTY(t *testing.T) {
	dir := ptyRobot(t)
	s := startPTY(t, dir, "run", "--spec", "spec.cue", "--run-log", filepath.Join(t.TempDir(), "runs"))
	s.expect("thea> ")

	// query_user: the answer typed at the terminal picks choice 2.
	s.send("pick a colour\n")
	s.expect("? Which colour?")
	s.expect("2) blue")
	s.send("2\n")
	s.expect(`asked Which colour?`)
	s.expect(`query_user {"answer":"blue"`)
	s.expect("── done: final_answer")
	s.expect("thea> ")

	// Ctrl-C during a slow motion stops that task only.
	s.send("move slowly\n")
	s.expect("→ move_base")
	s.send("this is not a command\n")
	s.expect("typed lines are commands now")
	waitForFile(t, filepath.Join(dir, "backend.log"), "motion started")
	s.send("\x03") // the terminal sends SIGINT
	s.expect("stopping the task (Ctrl-C again within 2s leaves)")
	s.expect("move_base was cancelled")
	s.expect("── done: cancelled")
	s.expect("thea> ")
	waitForFile(t, filepath.Join(dir, "backend.log"), "stop request: stopping 1 motion(s)")

	// The session survived: /replan revises the next task while it runs.
	s.send("move a little\n")
	s.expect("→ move_base")
	s.send("/replan go back to the door instead\n")
	s.expect("revision queued")
	s.expect("replan go back to the door instead")
	s.expect("── done: final_answer")
	s.expect("thea> ")

	s.send("/clear\n")
	s.expect("cleared the uncertain state of")
	s.send("/reset\n")
	s.expect("session reset: Accumulated context cleared")
	s.expect("thea> ")
	s.send("\x04") // Ctrl-D when idle leaves
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after Ctrl-D", code)
	}
}

// Two Ctrl-C within two seconds leave the session, idle or not; a running
// task is stopped first.
func TestDoubleInterruptLeavesPTY(t *testing.T) {
	dir := ptyRobot(t)
	s := startPTY(t, dir, "run", "--spec", "spec.cue", "--run-log", filepath.Join(t.TempDir(), "runs"))
	s.expect("thea> ")
	s.send("\x03")
	s.expect("Ctrl-C again within 2s, Ctrl-D or /quit leaves")
	s.send("\x03")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after two Ctrl-C", code)
	}

	s = startPTY(t, dir, "run", "--spec", "spec.cue", "--run-log", filepath.Join(t.TempDir(), "runs"))
	s.expect("thea> ")
	s.send("pick a colour\n")
	s.expect("? Which colour?") // a task is running, waiting for the answer
	s.send("\x03")
	s.expect("stopping the task")
	s.send("\x03")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after two Ctrl-C during a task", code)
	}
	if out := s.plain(); !strings.Contains(out, "── done: cancelled") {
		t.Errorf("the running task did not end before leaving:\n%s", out)
	}
}

func waitForFile(t *testing.T, path, want string) {
	t.Helper()
	for deadline := time.Now().Add(ptyDeadline); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path) // absent until the back-end writes
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never contained %q: %q", path, want, b)
		}
	}
}
