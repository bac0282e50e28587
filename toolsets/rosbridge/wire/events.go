package wire

import (
	"errors"
	"fmt"
	"time"
)

// Errors a caller can test for with errors.Is.
var (
	// ErrNotConnected: the socket is down (a reconnect is under way).
	// Nothing is queued for later: a command sent to a robot late is
	// worse than one refused.
	ErrNotConnected = errors.New("rosbridge: not connected")
	// ErrConnectionLost: the socket dropped while a call or goal waited
	// for its reply. A service may have run; a goal may still be running.
	ErrConnectionLost = errors.New("rosbridge: connection lost")
	// ErrClosed: the Client was closed.
	ErrClosed = errors.New("rosbridge: client closed")
)

// ServiceError is a service_response with result false: rosbridge could
// not call the service (it does not exist, the request did not fit its
// type) or the service failed. Message is rosbridge's text.
type ServiceError struct {
	Service string
	Message string
}

func (e *ServiceError) Error() string {
	return fmt.Sprintf("rosbridge service %s failed: %s", e.Service, e.Message)
}

// Why a frame was refused: the Reason of a Garbage.
const (
	GarbageBinary          = "binary frame"               // we never ask for CBOR or BSON
	GarbageTooLarge        = "frame too large"            // above MaxFrameBytes; read and dropped
	GarbageInvalidJSON     = "invalid JSON"               // also after repairing bare NaN/Infinity
	GarbageNotMessage      = "not a rosbridge message"    // not an object, or no string "op"
	GarbageUnknownOp       = "unexpected op"              // an op a client never receives
	GarbageBadFragment     = "bad fragment"               // missing or inconsistent id/num/total/data
	GarbageFragmentBounds  = "fragmented message too big" // past MaxFragments or MaxMessageBytes
	GarbageFragmentEvicted = "fragmented message evicted" // never completed, pushed out by newer ones
	GarbageUnmatched       = "unmatched reply"            // an id we never sent, or a name that differs from the one sent
	GarbageBadReply        = "malformed reply"            // a reply to a pending call whose fields are unusable
	GarbagePNG             = "png frame"                  // png compression is never requested
)

// Garbage describes one refused frame.
type Garbage struct {
	Reason string // one of the Garbage* constants
	Op     string // the frame's op, when it had one
	Size   int    // bytes of the frame
	Detail string // what was wrong, short; may quote up to 64 bytes of the frame
}

func (g Garbage) String() string {
	s := g.Reason
	if g.Op != "" {
		s += " (op " + g.Op + ")"
	}
	if g.Detail != "" {
		s += ": " + g.Detail
	}
	return s
}

// Status is a rosbridge "status" message: level ("error", "warning",
// "info") and text, with the id of the operation it is about, if any.
type Status struct {
	Level string
	Msg   string
	ID    string
}

// Disconnect reports a dropped socket.
type Disconnect struct {
	Err error
	// Generation of the connection that dropped (the first is 1).
	Generation uint64
	// Goals sent on it whose result never came: they may still be
	// running on the robot.
	Orphans []*Goal
}

// Reconnect reports a new socket after a drop.
type Reconnect struct {
	Generation uint64 // of the new connection
	At         time.Time
	Downtime   time.Duration
	// Goals still orphaned (sent on an earlier connection, no result, not
	// cancelled yet). Cancel them: rosbridge keeps running a goal whose
	// client went away.
	Orphans []*Goal
}

// Stats are the Client's counters since it was made.
type Stats struct {
	Frames            uint64 // WebSocket messages read
	Garbage           uint64 // frames refused (each also told to OnGarbage)
	NonFiniteRepaired uint64 // frames whose bare NaN/Infinity tokens were read as null
	Late              uint64 // replies to calls or goals their caller had given up on
	FeedbackDropped   uint64 // feedback messages a slow reader never saw
	Reconnects        uint64
}

// sample quotes the start of a frame for a Garbage's Detail.
func sample(b []byte) string {
	const n = 64
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
