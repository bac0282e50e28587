package engine

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// The contract between an out-of-process toolset kind and the body layer.
// A kind implements a Transport (a back-end constructor) and its Backend and
// BackendConn; everything a physical call needs beyond them (one motion at
// a time, the stop path, restarts, uncertainty) is the body layer's, which
// the host installs once (Components.SetBody) and StartToolset applies to
// every transport kind, so no kind can ship without it.

// Transport opens one toolset's back-end (nothing started yet): the whole
// runtime part of an out-of-process kind. cfg is the toolset's; env is what
// the back-end may use of the body layer while it runs.
type Transport func(cfg ToolsetConfig, env BackendEnv) (Backend, error)

// BodyLayer starts a transport kind's toolset under the motion rules: it
// opens the transport, connects it within start_timeout, lists its tools,
// and runs every call through the motion lock, the timeouts, the stop path,
// the uncertainty and the restarts. The host owns the one instance, and with
// it the state physical calls share (the locks and motion state of each
// body), so toolsets of every kind driving one body share it.
type BodyLayer interface {
	Start(ctx context.Context, cfg ToolsetConfig, open Transport) (Toolset, error)
}

// Backend is one toolset's way to its robot back-end: it starts
// connections.
type Backend interface {
	// Profile says how the back-end is stopped and checked, and which of
	// its tools move the robot whatever their contracts say. It does not
	// change once the toolset started.
	Profile() BackendProfile
	// Connect starts the back-end (a process, a connection) and returns it
	// ready for calls. ctx carries start_timeout; whatever outlives the
	// start (a process, a socket) must not end with ctx.
	Connect(ctx context.Context) (BackendConn, error)
	// Close releases what outlives connections; every connection was
	// closed or killed before.
	Close() error
}

// BackendConn is one live connection, from Connect until it is closed,
// killed or found dead; a restart makes a new one. Its methods are called
// from several goroutines at once.
type BackendConn interface {
	// Tools lists the back-end's tools; it is called once, on the first
	// connection.
	Tools(ctx context.Context) ([]model.ToolDef, error)
	// Call runs one tool until its reply or ctx's end. An error means no
	// reply: ctx ended, the back-end died (an error matching
	// ErrBackendCrashed), or the call failed in the transport (any other
	// error).
	Call(ctx context.Context, req BackendCall) (BackendReply, error)
	// Stop asks the back-end to stop the motion m now (an MCP stop tool,
	// an action's cancel); called only when the profile's Stop is set, at
	// most once per motion, bounded by ctx.
	Stop(ctx context.Context, m *Motion) (runlog.Envelope, error)
	// Alive is the liveness check after a call timed out: an answer the
	// back-end's own loop gives, not a worker a hung call may hold.
	Alive(ctx context.Context) error
	// Kill ends the back-end at once (its process group; a socket is
	// dropped); the calls it ran end with it.
	Kill()
	// Close ends the connection politely; it is idempotent and follows a
	// Kill harmlessly.
	Close()
	// CrashNote is what a dead back-end left behind, read after Close or
	// Kill and appended to the crash's description (" (stderr: …)"); ""
	// when nothing.
	CrashNote() string
}

// BackendCall is one call sent to the back-end.
type BackendCall struct {
	Tool string
	// Args are the arguments, already checked against the tool's input
	// schema.
	Args json.RawMessage
	// Motion is set for a physical call; BackendConn.Stop receives it back
	// (a transport that cancels per call keys its handle by it).
	Motion *Motion
}

// BackendReply is the back-end's answer to one call.
type BackendReply struct {
	Envelope runlog.Envelope
	// Malformed says why the reply is not the one JSON object an
	// observation must be ("" when it is).
	Malformed string
	// Raw renders the reply as sent, for a failed observation's reason;
	// nil renders the envelope.
	Raw func() string
}

// BackendProfile is what the body layer knows of a transport.
type BackendProfile struct {
	// Liveness names BackendConn.Alive's check in messages ("tools/list").
	Liveness string
	// Stop is the first step of the stop path; nil when the kind has none
	// (then an interrupted motion's back-end is killed after stop_grace).
	Stop *StopPath
	// Physical, when set, reports the tools the transport knows move the
	// robot whatever the spec's contracts say (a rosbridge action): the
	// body layer runs them as physical calls.
	Physical func(tool string) bool
}

// StopPath is a kind's way to stop a motion before the kill.
type StopPath struct {
	// Via is how, on the record (StopViaTool, StopViaCancel).
	Via string
	// Tool is the stop tool called, on the record (Via tool).
	Tool string
	// Name names it in sentences: "stop tool cancel_motion".
	Name string
	// Timeout bounds one BackendConn.Stop.
	Timeout time.Duration
}

// BackendEnv is what a transport may use of the body layer while it runs.
type BackendEnv struct {
	// Logger is the toolset's logger.
	Logger *slog.Logger
	// Emit records one of the transport's own events (garbage on a
	// back-end's stdout, a dropped frame); the toolset's name is filled in.
	// It never blocks.
	Emit func(SafetyEvent)
	// MotionEnded reports that the robot itself said a motion the stop path
	// gave up on has ended (an action goal's terminal status, learnt after
	// its call ended without one): until then the body stays uncertain
	// whatever an observation shows. m is the key its call carried
	// (BackendCall.Motion); how says what the robot reported. It never blocks.
	MotionEnded func(m *Motion, how string)
}

// Motion is one physical call in flight, from the moment it holds the
// body's locks until it really ends (its reply arrived or its back-end was
// killed), as a transport sees it: a key for its own handle of the call.
type Motion struct {
	Toolset, Tool string
	Start         time.Time
}

// SafetyEvent is one event of motion safety, of the body layer or of a
// transport (BackendEnv.Emit); the body layer records it as an EventSafety.
type SafetyEvent struct {
	// Kind is what happened: the body layer's kinds (late_reply, stop,
	// backend_killed, …) or a transport's own ("rosbridge_disconnected").
	Kind    string
	Toolset string
	Tool    string // the physical call concerned (or the observation tool)
	// Envelope is the late reply, the stop's result or the failed
	// observation (its Reason holds the raw text, bounded).
	Envelope runlog.Envelope
	// After is the time since the physical call started.
	After time.Duration
	Text  string
	// Stop is how the motion was stopped (stop and backend_killed events
	// of a stop path): the kind's stop or a kill, its outcome and duration.
	Stop *runlog.StopCall
}

// ErrBackendCrashed matches (errors.Is) a call's error when the back-end
// died or its connection did: the body layer drops the connection, and
// restarts it on the next call within the restart budget.
var ErrBackendCrashed = errors.New("the back-end is gone")

// BackendCrashed marks err as a dead back-end; its text stays err's.
func BackendCrashed(err error) error { return crashError{err} }

type crashError struct{ err error }

func (e crashError) Error() string        { return e.err.Error() }
func (e crashError) Unwrap() error        { return e.err }
func (e crashError) Is(target error) bool { return target == ErrBackendCrashed }
