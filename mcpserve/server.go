package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine"
)

// Defaults of Options.
const (
	DefaultIdle        = 5 * time.Minute
	DefaultMaxArgBytes = 256 << 10
)

// Options configure a Server.
type Options struct {
	// Name and Version are the server's MCP implementation info.
	Name, Version string
	// Idle ends a task the client opened without begin_task after this long
	// without a call (memory and tool experience are written then, as at
	// any task end). Zero means DefaultIdle; negative never ends it.
	Idle time.Duration
	// MaxArgBytes bounds one call's arguments as JSON; a larger call is
	// refused with a result saying so. Zero means DefaultMaxArgBytes.
	MaxArgBytes int
	Logger      *slog.Logger
	// BeforeCall, when set, runs before a robot tool's call enters the
	// session (the controlling-client lease of thea serve --mcp): an
	// error refuses the call with its text, and nothing runs.
	BeforeCall func(ctx context.Context, c CallInfo) error
	// OnCancel, when set, runs when the client cancels a call that is in
	// the session (its request context ends before the result); it
	// replaces the default, which stops the task (the engine's stop path
	// for a motion in flight).
	OnCancel func(c CallInfo)
	// Safety, when set, adds the controlling-client lease and
	// confirmations by elicitation (safety.go).
	Safety *Safety
}

// CallInfo describes one robot tool call of a client.
type CallInfo struct {
	Tool     string
	Physical bool
	// Session is the MCP client session's id ("" when the transport has
	// none).
	Session string
}

// Server is the MCP face of one session. Calls are served one at a time
// (one tool call per turn); a call waits for the one before it.
type Server struct {
	h    *engine.Harness
	d    *Decider
	opts Options
	log  *slog.Logger
	mcp  *server.MCPServer

	// turn is held by the call being served (a semaphore, so a waiting
	// call can give up with its context).
	turn chan struct{}
	// Guarded by turn.
	task  *taskRun
	calls int
	faced map[string]engine.FaceTool
	// physical is each robot tool's effective contract, read-only after New.
	physical map[string]bool
	// callCtx is the request of the robot call being served (safety.go):
	// an elicitation goes out on that request's stream.
	callCtx caller

	// base is the parent of every task's context; stopAll ends them.
	base    context.Context
	stopAll context.CancelFunc

	callerMu sync.Mutex
	caller   server.ClientSession

	idleMu    sync.Mutex
	idleTimer *time.Timer
	idleGen   int
	closeOnce sync.Once
}

// New builds the MCP face of h, a session built with engine.Options{Decider:
// d}. Close ends an open task; the caller closes h after.
func New(ctx context.Context, h *engine.Harness, d *Decider, opts Options) (*Server, error) {
	switch {
	case h == nil:
		return nil, errors.New("mcpserve.New: nil session")
	case d == nil:
		return nil, errors.New("mcpserve.New: nil decider (build the session with engine.Options{Decider: d})")
	}
	if opts.Name == "" {
		opts.Name = "thea"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Idle == 0 {
		opts.Idle = DefaultIdle
	}
	if opts.MaxArgBytes <= 0 {
		opts.MaxArgBytes = DefaultMaxArgBytes
	}
	s := &Server{h: h, d: d, opts: opts, log: opts.Logger, turn: make(chan struct{}, 1)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	// Tasks outlive the request that opened them, not the server.
	// They are marked as the client's to decide (shared.go).
	s.base, s.stopAll = context.WithCancel(clientTasks(context.WithoutCancel(ctx)))
	s.mcp = server.NewMCPServer(opts.Name, opts.Version, append([]server.ServerOption{
		server.WithRecovery(),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithInstructions(instructions),
	}, opts.Safety.serverOptions(s)...)...)
	opts.Safety.attach(s)
	if err := s.addTools(ctx); err != nil {
		s.stopAll()
		return nil, err
	}
	s.addResources()
	s.addPrompts()
	return s, nil
}

// instructions tell a client how the session works.
const instructions = `This server is a robot behind Thea's safety harness. Each tool call runs through the spec's hooks (a block or a clamp is said in the result), the body layer and the evaluator; the result is what the harness tells the acting model, with the evaluator's verdict. One call runs at a time. Call begin_task with the instruction you are working on, observe to see the present (the Scene Graph Brief and the camera images), and end_task when done: memory is written at a task's end.`

// MCP is the MCP server, to serve over any transport (stdio, streamable
// HTTP).
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Close ends an open task (its report and memory written as at any task
// end) and stops serving calls. It does not close the session.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.stopIdle()
		ctx, cancel := context.WithTimeout(s.base, closeGrace)
		defer cancel()
		if acquireErr := s.acquire(ctx); acquireErr != nil {
			// A call is still in the session: stop its task.
			s.stopAll()
			err = fmt.Errorf("closing the MCP face: %w", acquireErr)
			return
		}
		defer s.release()
		if s.task != nil {
			s.endTask(ctx, "The MCP client disconnected; the task ended with the server.")
		}
		s.stopAll()
	})
	return err
}

// closeGrace bounds how long Close waits for a call in the session.
const closeGrace = 30 * time.Second

// acquire takes the turn, or fails when ctx ends first.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the call before this one: %w", ctx.Err())
	}
}

func (s *Server) release() { <-s.turn }

// Caller is the MCP client session whose robot call is in the session now,
// nil between calls: a confirmation a hook asks during the call is this
// client's to answer (by elicitation, when it declared the capability).
func (s *Server) Caller() server.ClientSession {
	s.callerMu.Lock()
	defer s.callerMu.Unlock()
	return s.caller
}

func (s *Server) setCaller(cs server.ClientSession) {
	s.callerMu.Lock()
	defer s.callerMu.Unlock()
	s.caller = cs
}
