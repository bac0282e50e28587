package runlog

import "time"

// An operator's takeover of a session: a pause that ends the call in flight
// through the stop path and holds the loop, then a hand back with a note
// that the next request tells the model. Both are events of the task's
// record, with who and when.

// EventHandover is a pause or a hand back (Handover says which).
const EventHandover EventKind = "handover"

// Handover actions.
const (
	HandoverPause = "pause"
	HandoverBack  = "hand_back"
)

// Handover is the payload of EventHandover.
type Handover struct {
	// Action is "pause" or "hand_back".
	Action string `json:"action"`
	// By is who did it: "console", "api", "terminal", or the name a client
	// gave.
	By string `json:"by"`
	// PausedAt is when the pause began.
	PausedAt time.Time `json:"paused_at"`
	// Call is the tool call the pause stopped (pause), if one was running.
	Call string `json:"call,omitempty"`
	// PausedBy is who paused (hand_back).
	PausedBy string `json:"paused_by,omitempty"`
	// HandedBackAt, PausedMS and Note are the hand back's: when, how long
	// the operator had the robot, and what they wrote for the model.
	HandedBackAt time.Time `json:"handed_back_at,omitzero"`
	PausedMS     float64   `json:"paused_ms,omitempty"`
	Note         string    `json:"note,omitempty"`
}
