package bodysuite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The bare kind's transport: what a kind author writes, and all of it. A
// subprocess per connection, one JSON request a line on its stdin, answers
// matched by id on its stdout (faultserver's line protocol).

// bareGrace is how long Close lets the back-end end by itself after its
// stdin closed, before it is killed.
const bareGrace = time.Second

// openBare is the kind's Transport.
func openBare(tc engine.ToolsetConfig, _ engine.BackendEnv) (engine.Backend, error) {
	cfg, ok := tc.Section.Config.(bareConfig)
	if !ok || len(cfg.Command) == 0 {
		return nil, fmt.Errorf("a bare toolset needs its command (its section is a %T)", tc.Section.Config)
	}
	return &bareBackend{cfg: cfg}, nil
}

type bareBackend struct{ cfg bareConfig }

// Profile: the liveness check is a ping; the stop is the declared stop
// tool, if any.
func (b *bareBackend) Profile() engine.BackendProfile {
	p := engine.BackendProfile{Liveness: "ping"}
	if st := b.cfg.Stop; st != nil {
		timeout := st.Timeout.D()
		if timeout <= 0 {
			timeout = 2 * time.Second
		}
		p.Stop = &engine.StopPath{Via: runlog.StopViaTool, Tool: st.Tool, Name: "stop tool " + st.Tool, Timeout: timeout}
	}
	return p
}

func (b *bareBackend) Close() error { return nil }

// Connect starts the subprocess in its own process group (Kill ends the
// group) and waits for its first answer to a ping.
func (b *bareBackend) Connect(ctx context.Context) (engine.BackendConn, error) {
	cmd := exec.Command(b.cfg.Command[0], b.cfg.Command[1:]...)
	cmd.Env = os.Environ()
	for k, v := range b.cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = dieWithParent()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	c := &bareConn{cmd: cmd, stop: b.cfg.Stop, stderr: &lastBytes{max: 2048}, pending: map[int]chan bareAnswer{}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c.in = in
	go c.read(out)
	if err := c.Alive(ctx); err != nil {
		c.Kill()
		return nil, fmt.Errorf("starting %s: %w%s", b.cfg.Command[0], err, c.CrashNote())
	}
	return c, nil
}

// bareConn is one subprocess.
type bareConn struct {
	cmd    *exec.Cmd
	stop   *bareStop
	in     io.WriteCloser
	stderr *lastBytes
	wmu    sync.Mutex // one request line at a time
	once   sync.Once  // closes stdin

	mu      sync.Mutex
	next    int
	pending map[int]chan bareAnswer
	gone    error         // why no answer will come, once the process ended
	done    chan struct{} // closed once the process ended and was reaped
}

type bareAnswer struct {
	faultserver.LineReply
	err error
}

// read matches answers to requests until stdout ends, then reaps the
// process and fails every call still waiting: the back-end is gone.
func (c *bareConn) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r faultserver.LineReply
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == nil {
			continue // not an answer: a line the back-end printed
		}
		c.mu.Lock()
		ch := c.pending[*r.ID]
		delete(c.pending, *r.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- bareAnswer{LineReply: r}
		}
	}
	err := c.cmd.Wait()
	c.mu.Lock()
	c.gone = engine.BackendCrashed(fmt.Errorf("the back-end exited (%v)", err))
	for id, ch := range c.pending {
		ch <- bareAnswer{err: c.gone}
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.done)
}

// ask sends one request and waits for its answer, the back-end's end, or
// ctx's.
func (c *bareConn) ask(ctx context.Context, req faultserver.LineRequest) (faultserver.LineReply, error) {
	ch := make(chan bareAnswer, 1)
	c.mu.Lock()
	if c.gone != nil {
		c.mu.Unlock()
		return faultserver.LineReply{}, c.gone
	}
	c.next++
	req.ID = c.next
	c.pending[req.ID] = ch
	c.mu.Unlock()
	line, err := json.Marshal(req)
	if err != nil {
		return faultserver.LineReply{}, err
	}
	c.wmu.Lock()
	_, err = c.in.Write(append(line, '\n'))
	c.wmu.Unlock()
	if err != nil {
		c.forget(req.ID)
		return faultserver.LineReply{}, engine.BackendCrashed(fmt.Errorf("writing to the back-end: %w", err))
	}
	select {
	case a := <-ch:
		return a.LineReply, a.err
	case <-ctx.Done():
		c.forget(req.ID)
		return faultserver.LineReply{}, ctx.Err()
	}
}

func (c *bareConn) forget(id int) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func (c *bareConn) Tools(ctx context.Context) ([]model.ToolDef, error) {
	r, err := c.ask(ctx, faultserver.LineRequest{Op: "tools"})
	if err != nil {
		return nil, err
	}
	defs := make([]model.ToolDef, 0, len(r.Tools))
	for _, t := range r.Tools {
		defs = append(defs, model.ToolDef{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	return defs, nil
}

// Call runs one tool: an error answer is a failure, a JSON object is the
// value, any other text is the value's text (and no observation).
func (c *bareConn) Call(ctx context.Context, req engine.BackendCall) (engine.BackendReply, error) {
	r, err := c.ask(ctx, faultserver.LineRequest{Op: "call", Tool: req.Tool, Args: req.Args})
	if err != nil {
		return engine.BackendReply{}, err
	}
	raw := func() string { return r.Text }
	if r.Error {
		return engine.BackendReply{Envelope: runlog.Failure(r.Text), Raw: raw}, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.Text), &obj); err != nil || obj == nil {
		return engine.BackendReply{Envelope: runlog.Envelope{Success: true, Value: map[string]any{"text": r.Text}},
			Malformed: "its text is not a JSON object", Raw: raw}, nil
	}
	return engine.BackendReply{Envelope: runlog.Envelope{Success: true, Value: obj}, Raw: raw}, nil
}

// Stop calls the declared stop tool (the body layer calls it only when
// Profile declares one).
func (c *bareConn) Stop(ctx context.Context, _ *engine.Motion) (runlog.Envelope, error) {
	st := c.stop
	if st == nil {
		return runlog.Envelope{}, errors.New("no stop tool is declared")
	}
	args, err := json.Marshal(st.Args)
	if err != nil {
		return runlog.Envelope{}, err
	}
	r, err := c.Call(ctx, engine.BackendCall{Tool: st.Tool, Args: args})
	return r.Envelope, err
}

// Alive is a ping, which the back-end's reading loop answers.
func (c *bareConn) Alive(ctx context.Context) error {
	_, err := c.ask(ctx, faultserver.LineRequest{Op: "ping"})
	return err
}

// Kill ends the process group at once, and with it every call.
func (c *bareConn) Kill() {
	select {
	case <-c.done:
		return // reaped: its pid may be another's now
	default:
	}
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	<-c.done
}

// Close closes stdin and gives the back-end bareGrace to end by itself.
func (c *bareConn) Close() {
	c.once.Do(func() { _ = c.in.Close() })
	t := time.NewTimer(bareGrace)
	defer t.Stop()
	select {
	case <-c.done:
	case <-t.C:
		c.Kill()
	}
}

// CrashNote is the back-end's last words on stderr.
func (c *bareConn) CrashNote() string {
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return " (stderr: " + s + ")"
	}
	return ""
}

// lastBytes keeps the last max bytes written.
type lastBytes struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (l *lastBytes) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if len(l.b) > l.max {
		l.b = l.b[len(l.b)-l.max:]
	}
	return len(p), nil
}

func (l *lastBytes) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

var (
	_ engine.Backend     = (*bareBackend)(nil)
	_ engine.BackendConn = (*bareConn)(nil)
)
