package toolsets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// conn is one running back-end: an initialised client and, over stdio, the
// process group of its subprocess. It is the MCP transport's engine.BackendConn.
type conn struct {
	b      *mcpBackend
	client *client.Client
	cmd    *exec.Cmd // nil over HTTP
	stderr *tail
	once   sync.Once

	// Over stdio: the subprocess's stdout, the pipe the filter feeds the
	// transport through, and exited, closed once the filter reached the end
	// of stdout and the process was waited for.
	stdout  io.Closer
	pr      *io.PipeReader
	exited  chan struct{}
	garbage garbageCount
}

var _ engine.BackendConn = (*conn)(nil)

// gracefulExit is how long a back-end may take to exit by itself once its
// stdin is closed, before its process group is killed.
const gracefulExit = 2 * time.Second

// spawn starts the back-end's subprocess on the spawner's thread and hands
// the transport its stdin and a filtered stdout (see filterStdout).
func (c *conn) spawn(argv, env []string, dir string) error {
	b := c.b
	// Not CommandContext: the back-end outlives the start-up context.
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = dir
	// Our writer: Wait then guarantees the crash's last words are captured
	// before the crash is reported. WaitDelay bounds a grandchild holding it.
	cmd.Stderr = c.stderr
	cmd.WaitDelay = time.Second
	// Its own process group, so close can end grandchildren too; on Linux
	// it also dies with the spawner's thread.
	cmd.SysProcAttr = procAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("starting %s: stdin pipe: %w", b.key, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("starting %s: stdout pipe: %w", b.key, err)
	}
	if !b.spawn.run(func() { err = cmd.Start() }) {
		err = errors.New("the toolset is closed")
	}
	if err != nil {
		_ = stdin.Close()
		_ = stdout.Close()
		return fmt.Errorf("starting %s: %w", b.key, err)
	}
	c.cmd, c.stdout, c.exited = cmd, stdout, make(chan struct{})
	pr, pw := io.Pipe()
	c.pr = pr
	go func() {
		defer close(c.exited)
		filterStdout(stdout, pw, maxStdoutLine, func(line []byte) { c.stdoutGarbage(line) })
		// After stdout's end, as exec requires; the exit status is the
		// crash the transport already reports.
		_ = cmd.Wait()
	}()
	tr := transport.NewIO(pr, stdin, nil)
	transport.WithCommandLogger(quiet())(tr)
	c.client = client.NewClient(tr)
	return nil
}

// quiet is given to mcp-go's transports: they log expected events (a closed
// pipe after a crash) as errors; the toolset reports what matters itself.
func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Connect starts the back-end: spawns the subprocess or connects to the
// server, then initialises the session within ctx (start_timeout).
func (b *mcpBackend) Connect(ctx context.Context) (engine.BackendConn, error) {
	c := &conn{b: b}
	if b.cfg.URL != "" {
		cl, err := client.NewStreamableHttpClient(b.cfg.URL,
			transport.WithHTTPHeaders(b.cfg.Headers), transport.WithHTTPLogger(quiet()))
		if err != nil {
			return nil, fmt.Errorf("connecting to %s: %w", b.cfg.URL, err)
		}
		c.client = cl
	} else {
		c.stderr = &tail{max: 2048}
		argv, env, dir, err := b.commandLine()
		if err != nil {
			return nil, err
		}
		if err := c.spawn(argv, env, dir); err != nil {
			return nil, err
		}
	}
	// The transport keeps this context for the connection's lifetime. A
	// subprocess is forked on the spawner's thread (see spawner).
	err := c.client.Start(context.WithoutCancel(ctx))
	if err != nil {
		c.close()
		return nil, fmt.Errorf("starting %s: %w", b.key, err)
	}
	_, err = c.client.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		ClientInfo:      mcp.Implementation{Name: "thea", Version: "0.1.0"},
	}})
	if err != nil {
		c.close()
		return nil, fmt.Errorf("initializing %s: %w%s", b.key, err, c.CrashNote())
	}
	return c, nil
}

// commandLine resolves the command ("thea" runs this binary), the allow-listed
// environment (env plus env_passthrough, nothing else) and the working
// directory (relative to the spec's directory).
func (b *mcpBackend) commandLine() (argv, env []string, dir string, err error) {
	argv = append([]string(nil), b.cfg.Command...)
	if argv[0] == "thea" {
		self, err := os.Executable()
		if err != nil {
			return nil, nil, "", fmt.Errorf("resolving the thea binary: %w", err)
		}
		argv[0] = self
	}
	env = []string{} // non-nil: a nil Env would inherit the whole environment
	for _, k := range b.cfg.EnvPassthrough {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range b.cfg.Env {
		env = append(env, k+"="+v)
	}
	dir = b.cfg.Cwd
	if dir == "" {
		dir = b.tc.Dir
	} else {
		dir = schema.ResolvePath(b.tc.Dir, dir)
	}
	return argv, env, dir, nil
}

// Close ends the connection (see close) and reports the garbage lines its
// stdout carried since the last sampled event.
func (c *conn) Close() {
	c.close()
	c.garbageTotal()
}

// Kill ends the back-end at once (see kill).
func (c *conn) Kill() {
	c.kill()
	c.garbageTotal()
}

// close ends the connection once: stdin is closed first so a well-behaved
// server exits by itself, then the whole process group is killed so nothing
// it started survives.
func (c *conn) close() {
	c.once.Do(func() {
		if c.client != nil {
			_ = c.client.Close() // errors here are the crash already reported
		}
		if c.cmd == nil {
			return
		}
		// The transport no longer reads: the filter drains stdout alone.
		_ = c.pr.Close()
		t := time.NewTimer(gracefulExit)
		defer t.Stop()
		select {
		case <-c.exited:
		case <-t.C:
		}
		// ESRCH means the group is already gone.
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		t.Reset(time.Second)
		select {
		case <-c.exited:
		case <-t.C:
			// Something outside the group holds stdout: stop reading it.
			_ = c.stdout.Close()
			<-c.exited
		}
	})
}

// kill ends the back-end at once: SIGKILL to its whole process group before
// the polite close (which would wait for a busy server to notice its stdin).
// Over HTTP it is close.
func (c *conn) kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		// ESRCH means the group is already gone.
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
	c.close()
}

// CrashNote is the end of the back-end's stderr, read once it exited.
func (c *conn) CrashNote() string {
	if c.stderr == nil {
		return ""
	}
	if s := c.stderr.String(); s != "" {
		return " (stderr: " + s + ")"
	}
	return ""
}

// tail keeps the last max bytes written (the back-end's stderr).
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(trimSpace(t.b))
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// isCrash tells a dead back-end (closed pipe, refused connection) from an error
// the back-end answered with.
func isCrash(err error) bool {
	var uerr *url.Error
	return errors.Is(err, transport.ErrTransportClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.As(err, &uerr)
}
