package rosbridgetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Process is a fake rosbridge running in a child process: a test binary
// whose TestMain calls ChildMain.
type Process struct {
	URL    string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	waited chan struct{}
	err    error // of Wait, once waited is closed

	mu     sync.Mutex
	stderr bytes.Buffer
}

// StartProcess starts binary (usually os.Args[0], the running test
// binary) as a fake rosbridge with Main's args, and waits until it prints
// its URL or ctx ends. The child exits when its stdin closes, so it never
// outlives the test process.
func StartProcess(ctx context.Context, binary string, args ...string) (*Process, error) {
	all, err := json.Marshal(append(append([]string{}, args...), "-exit-on-stdin-eof"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary)
	cmd.Env = append(os.Environ(), ChildEnv+"="+string(all))
	p := &Process{cmd: cmd, waited: make(chan struct{})}
	cmd.Stderr = lockedWriter{&p.mu, &p.stderr}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("rosbridgetest: start %s: %w", binary, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.waited)
	}()
	urls := make(chan string, 1)
	go func() {
		u, err := readURL(stdout)
		if err != nil {
			u = ""
		}
		urls <- u
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-urls:
		if u == "" {
			p.Kill()
			return nil, fmt.Errorf("rosbridgetest child exited before serving: %s", p.Stderr())
		}
		p.URL = u
		return p, nil
	case <-ctx.Done():
		p.Kill()
		return nil, fmt.Errorf("rosbridgetest child: no URL: %w; stderr: %s", ctx.Err(), p.Stderr())
	}
}

// Pid is the child's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stderr is what the child logged so far.
func (p *Process) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// Stop asks the child to exit (stdin closes) and waits up to grace, then
// kills it.
func (p *Process) Stop(grace time.Duration) error {
	_ = p.stdin.Close()
	select {
	case <-p.waited:
		return p.err
	case <-time.After(grace):
		p.Kill()
		return errors.New("rosbridgetest child did not stop in time; killed")
	}
}

// Kill ends the child at once (SIGKILL), as a crash does, and waits for it.
func (p *Process) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.waited
}

// Done is closed when the child has exited.
func (p *Process) Done() <-chan struct{} { return p.waited }

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

// maxStderr bounds what a child's log keeps; the rest is dropped.
const maxStderr = 1 << 20

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := maxStderr - l.w.Len(); room < len(b) {
		l.w.Write(b[:max(room, 0)])
		return len(b), nil
	}
	return l.w.Write(b)
}
