package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
)

// Session is what the server drives: *engine.Harness.
type Session interface {
	RunStream(ctx context.Context, instruction string, opts ...engine.RunOption) iter.Seq[runlog.Event]
	ResetSession() error
	Close() error
	// Redactor redacts what the server shows outside the event stream
	// (status, task views), as the session redacts its events.
	Redactor() *redact.Redactor
}

var _ Session = (*engine.Harness)(nil)

// Config configures a Server.
type Config struct {
	// Token is the bearer token every request must carry; empty serves
	// without one, which Serve allows on a loopback address only.
	Token string
	// KeepTasks is how many tasks' event logs stay readable (default 16).
	KeepTasks int
	// ShutdownGrace bounds how long shutdown waits for open requests after
	// the task has stopped (default 5s).
	ShutdownGrace time.Duration
	// HeaderTimeout bounds reading a request's headers (default 10s); a
	// connection that sends none in time is closed.
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body once its headers passed
	// the token check (default 10s); a body not received in time is
	// answered 408 and the connection closed.
	BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long between
	// requests (default 2m). An event stream is never idle.
	IdleTimeout time.Duration
	// MaxConns bounds the open connections (default 4096, and never more
	// than half the open-file limit); MaxConnsPerIP bounds one client
	// address's connections that have not yet carried an authorized
	// request (default 256). See conns.go for what gives way at a bound.
	MaxConns, MaxConnsPerIP int
	// MaxImageBytes bounds the camera images kept in memory for clients
	// (default 64 MiB; see images.go).
	MaxImageBytes int
	// Metrics, when set, is served at GET /metrics behind the same token as
	// the API (Prometheus sends it: authorization.credentials_file).
	Metrics http.Handler

	// MCP, when set, is served at /mcp (thea serve --mcp); Gate is shared
	// with it so the API's tasks and its clients' never run at once (mcp.go).
	MCP  http.Handler
	Gate TaskGate

	Logger *slog.Logger
	Clock  func() time.Time

	// Resume is a task to start as soon as the server serves, as POST
	// /v1/tasks would (thea serve --resume: the checkpoint's instruction;
	// the session continues the task).
	Resume string
}

// Server serves one session over HTTP. Build it with New, give its User()
// channel to the session (engine.Options.User), then Serve.
type Server struct {
	cfg  Config
	user *Channel

	mu      sync.Mutex
	sess    Session
	current *taskRun // the running task, nil when idle
	tasks   map[int]*taskRun
	order   []int // task ids, oldest first
	nextID  int
	closing bool
	red     *redact.Redactor // the session's, once Serve has it
	conns   *connLimiter     // the listener's bounds, once Serve has them
	wg      sync.WaitGroup   // the running task's goroutine
	baseCtx context.Context
	// stateChanged is closed (and replaced) when a task starts or ends or
	// the session resets: the session stream sends a new status.
	stateChanged chan struct{}

	instance string // this server run's id (images' URLs, the status)
	images   *imageStore
	cookies  *readCookies
	live     *liveView
}

// New builds a server; Serve starts it.
func New(cfg Config) *Server {
	if cfg.KeepTasks <= 0 {
		cfg.KeepTasks = 16
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = 5 * time.Second
	}
	if cfg.HeaderTimeout <= 0 {
		cfg.HeaderTimeout = 10 * time.Second
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = 10 * time.Second
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 2 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	instance := newInstanceID()
	s := &Server{cfg: cfg, tasks: map[int]*taskRun{}, stateChanged: make(chan struct{}), instance: instance,
		images: newImageStore(instance, cfg.MaxImageBytes), cookies: newReadCookies(cfg.Clock), live: newLiveView()}
	s.user = newChannel(s.postCurrent, s.images)
	return s
}

// User is the session's user channel: questions and confirmations park
// until a client answers them over HTTP.
func (s *Server) User() *Channel { return s.user }

// Serve answers requests on ln for sess until ctx ends; then it stops the
// running task (should_cancel, its questions unparked, its tool
// interrupted), waits for it, shuts the HTTP server down and closes the
// session. The listener's address is checked against the token rule first.
func (s *Server) Serve(ctx context.Context, ln net.Listener, sess Session) error {
	if err := CheckBind(ln.Addr().String(), s.cfg.Token); err != nil {
		return errors.Join(err, ln.Close(), sess.Close())
	}
	lim := newConnLimiter(ln, resolveLimits(s.cfg, openFileLimit()))
	s.mu.Lock()
	s.sess, s.baseCtx, s.red, s.conns = sess, ctx, sess.Redactor(), lim
	s.mu.Unlock()
	s.cfg.Logger.Debug("serving", "max_conns", lim.lim.total, "max_unproven", lim.lim.unproven,
		"max_unproven_per_ip", lim.lim.perIP, "header_timeout", s.cfg.HeaderTimeout,
		"body_timeout", s.cfg.BodyTimeout, "idle_timeout", s.cfg.IdleTimeout)
	srv := &http.Server{
		Handler: s.Handler(),
		// No ReadTimeout: it would also cut an event stream. The body's
		// deadline is set per request once its token is checked.
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
		IdleTimeout:       s.cfg.IdleTimeout, // no write timeout: an event stream lasts the task
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         lim.connState,
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(s.cfg.Logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lim) }()
	if s.cfg.Resume != "" {
		if _, err := s.submit(s.cfg.Resume); err != nil {
			s.cfg.Logger.Error("resuming the task", "err", err)
		}
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	s.shutdown()
	// Stalled clients do not hold shutdown for its grace period.
	lim.closeStalled()
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownGrace)
	defer cancel()
	errs := []error{}
	if err := srv.Shutdown(grace); err != nil {
		errs = append(errs, fmt.Errorf("http shutdown: %w", err), srv.Close())
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("serving: %w", serveErr))
	}
	if err := sess.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing the session: %w", err))
	}
	if n := lim.shed.Load(); n > 0 {
		s.cfg.Logger.Warn("connections were closed to keep the connection bounds (stalled or unauthenticated clients)", "closed", n)
	}
	return errors.Join(errs...)
}

// maxHeaderBytes bounds a request's headers (net/http's default is 1 MiB,
// which thousands of stalled connections would multiply).
const maxHeaderBytes = 32 << 10

// redactor is the session's redactor; nil (nothing redacted) before Serve.
func (s *Server) redactor() *redact.Redactor {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.red
}

// shutdown refuses new tasks, stops the running one and waits for it.
func (s *Server) shutdown() {
	s.mu.Lock()
	s.closing = true
	cur := s.current
	s.changedLocked()
	s.mu.Unlock()
	if cur != nil {
		s.stopTask(cur, true, errors.New("the server is shutting down"))
	}
	s.wg.Wait()
}

// errBusy and friends are the server's refusals.
var (
	errBusy    = errors.New("a task is running")
	errClosing = errors.New("the server is shutting down")
)

// submit starts a task unless one runs.
func (s *Server) submit(instruction string) (*taskRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing || s.sess == nil:
		return nil, errClosing
	case s.current != nil:
		return s.current, errBusy
	}
	leave, err := s.enterGate(s.nextID + 1)
	if err != nil {
		return nil, err
	}
	s.nextID++
	ctx, cancel := context.WithCancelCause(s.baseCtx)
	run := newTaskRun(s.nextID, instruction, s.cfg.Clock(), cancel)
	s.current = run
	s.tasks[run.id] = run
	s.order = append(s.order, run.id)
	for len(s.order) > s.cfg.KeepTasks {
		delete(s.tasks, s.order[0])
		s.order = s.order[1:]
	}
	s.wg.Add(1)
	s.changedLocked()
	go s.runTask(ctx, run, leave)
	return run, nil
}

// runTask streams one task into its log. The done event is held back until
// the session has released the task, so a client that reads it and submits
// the next task at once is never refused as busy.
func (s *Server) runTask(ctx context.Context, run *taskRun, leave func()) {
	defer s.wg.Done()
	defer leave()
	defer run.cancel(nil)
	var done *runlog.Event
	red := s.redactor()
	s.live.startTask()
	for ev := range s.sess.RunStream(ctx, run.instruction,
		engine.WithPollReplan(run.pollReplan), engine.WithShouldCancel(run.stop.Load)) {
		if ev.Kind == runlog.EventDone {
			done = &ev
			continue
		}
		run.appendEvent(ev, s.images)
		// Here, between two steps of the task and on its goroutine, its
		// notes may be read.
		s.live.observe(s.sess, ev)
		if n, changed := s.live.notesChanged(s.sess, red); changed {
			run.append("notes", n)
		}
		if h, changed := s.live.healthChanged(s.sess, red); changed {
			run.append("health", h)
		}
	}
	if done == nil { // the engine promises one; never leave readers hanging
		rep := runlog.Report{Reason: runlog.DoneError, Error: "the task's stream ended without a done event"}
		done = &runlog.Event{Kind: runlog.EventDone, Time: s.cfg.Clock(), Task: run.id, Done: &rep}
	}
	s.live.endTask()
	if h, changed := s.live.healthChanged(s.sess, red); changed {
		run.append("health", h)
	}
	s.mu.Lock()
	s.current = nil
	s.mu.Unlock()
	run.finish(*done)
	s.mu.Lock()
	s.changedLocked()
	s.mu.Unlock()
}

// stopTask asks the task to stop: should_cancel turns true and its parked
// questions are unparked; interrupt also cancels its context, so a running
// tool is interrupted through its toolset (MCP notifications/cancelled) and
// a model call is abandoned.
func (s *Server) stopTask(run *taskRun, interrupt bool, cause error) {
	run.stop.Store(true)
	s.user.abortAll(cause)
	if interrupt {
		run.cancel(cause)
	}
	s.stopPaused(run, cause)
}

// postCurrent puts a server event on the running task's stream.
func (s *Server) postCurrent(name string, v any) {
	s.mu.Lock()
	cur := s.current
	s.mu.Unlock()
	if cur != nil {
		cur.append(name, redact.Value(s.redactor(), v))
	}
}

// reset clears the session's Accumulated context, refused while a task runs.
func (s *Server) reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing || s.sess == nil:
		return errClosing
	case s.current != nil:
		return errBusy
	}
	if err := s.sess.ResetSession(); err != nil {
		if errors.Is(err, engine.ErrBusy) {
			return errBusy
		}
		return fmt.Errorf("reset: %w", err)
	}
	s.changedLocked()
	return nil
}

func (s *Server) task(id int) (*taskRun, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.tasks[id]
	return r, ok
}

// changedLocked wakes the session streams; s.mu is held.
func (s *Server) changedLocked() {
	close(s.stateChanged)
	s.stateChanged = make(chan struct{})
}

// stateSignal is closed at the next change of the session's state.
func (s *Server) stateSignal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateChanged
}

// newInstanceID names one run of the server.
func newInstanceID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	return hex.EncodeToString(b)
}
