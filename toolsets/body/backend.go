package body

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// Backend is one toolset's way to its robot back-end: it starts
// connections. Everything else a physical call needs (one motion at a time,
// the stop path, restarts, uncertainty) is the body layer's, so a transport
// implements only this and Conn.
type Backend interface {
	// Profile says how the back-end is stopped and checked, for the stop
	// path and for messages. It does not change once the toolset started.
	Profile() Profile
	// Connect starts the back-end (a process, a connection) and returns it
	// ready for calls. ctx carries start_timeout; whatever outlives the
	// start (a process, a socket) must not end with ctx.
	Connect(ctx context.Context) (Conn, error)
	// Close releases what outlives connections; every connection was
	// closed or killed before.
	Close() error
}

// Conn is one live connection, from Connect until it is closed, killed or
// found dead; a restart makes a new one. Its methods are called from
// several goroutines at once.
type Conn interface {
	// Tools lists the back-end's tools; it is called once, on the first
	// connection.
	Tools(ctx context.Context) ([]model.ToolDef, error)
	// Call runs one tool until its reply or ctx's end. An error means no
	// reply: ctx ended, the back-end died (an error matching ErrCrashed),
	// or the call failed in the transport (any other error).
	Call(ctx context.Context, req Request) (Reply, error)
	// Stop asks the back-end to stop the motion m now (an MCP stop tool,
	// an action's cancel); called only when Profile.Stop is set, at most
	// once per motion, bounded by ctx.
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

// Request is one call sent to the back-end.
type Request struct {
	Tool string
	// Args are the arguments, already checked against the tool's input
	// schema.
	Args json.RawMessage
	// Motion is set for a physical call; Conn.Stop receives it back (a
	// transport that cancels per call keys its handle by it).
	Motion *Motion
}

// Reply is the back-end's answer to one call.
type Reply struct {
	Envelope runlog.Envelope
	// Malformed says why the reply is not the one JSON object an
	// observation must be ("" when it is).
	Malformed string
	// Raw renders the reply as sent, for a failed observation's reason;
	// nil renders the envelope.
	Raw func() string
}

// Profile is what the body layer knows of a transport.
type Profile struct {
	// Liveness names Conn.Alive's check in messages ("tools/list").
	Liveness string
	// Stop is the first step of the stop path; nil when the kind has none
	// (then an interrupted motion's back-end is killed after stop_grace).
	Stop *StopPath
}

// StopPath is a kind's way to stop a motion before the kill.
type StopPath struct {
	// Via is how, on the record (runlog.StopViaTool, runlog.StopViaCancel).
	Via string
	// Tool is the stop tool called, on the record (Via tool).
	Tool string
	// Name names it in sentences: "stop tool cancel_motion".
	Name string
	// Timeout bounds one Conn.Stop.
	Timeout time.Duration
}

// Env is what a transport may use of the body layer while it runs.
type Env struct {
	// Logger is the toolset's logger.
	Logger *slog.Logger
	// Emit records one of the transport's own events (garbage on a
	// back-end's stdout, a dropped frame); the toolset's name is filled in.
	// It never blocks.
	Emit func(SafetyEvent)
}

// ErrCrashed matches (errors.Is) a call's error when the back-end died or
// its connection did: the body layer drops the connection, and restarts it
// on the next call within the restart budget.
var ErrCrashed = errors.New("the back-end is gone")

// Crashed marks err as a dead back-end; its text stays err's.
func Crashed(err error) error { return crashError{err} }

type crashError struct{ err error }

func (e crashError) Error() string        { return e.err.Error() }
func (e crashError) Unwrap() error        { return e.err }
func (e crashError) Is(target error) bool { return target == ErrCrashed }
