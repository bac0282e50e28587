package serve

import (
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// What an operator watches beside the engine's events: the back-ends'
// health and the running task's Task Notes. Both are read from the session
// after each event of a task and put on its stream as a server event
// (`health`, `notes`) when they changed, so a client that reconnects or
// connects late reads them in order with the rest.

// What the server reads of a session when it offers it (*engine.Harness
// does); a session without them shows less.
type (
	healthReporter interface {
		Health() []engine.ToolsetHealth
	}
	notesReader interface {
		RunningTaskNotes() (engine.TaskNotes, bool)
	}
	toolLookup interface {
		Lookup(name string) (*engine.RegisteredTool, bool)
	}
	specHolder interface{ Spec() *schema.Spec }
)

// Health is the back-ends' health: /v1/status and the `health` event.
type Health struct {
	Toolsets []engine.ToolsetHealth `json:"toolsets"`
	// Restarts adds up the back-ends' restarts since the session started.
	Restarts int `json:"restarts"`
	// Uncertain is why physical calls are refused now (the first toolset's
	// reason), empty when the robot's state is certain.
	Uncertain string `json:"uncertain,omitempty"`
	// UncertainToolset names the back-end whose fault made it uncertain,
	// and UncertainSince when.
	UncertainToolset string    `json:"uncertain_toolset,omitempty"`
	UncertainSince   time.Time `json:"uncertain_since,omitzero"`
	// Moving describes the physical calls in flight now, a motion given up
	// on (a timeout, a stop) included until it really ends: the robot may
	// still be moving, and an operator's clear is refused.
	Moving   []string `json:"moving,omitempty"`
	BodyLock BodyLock `json:"body_lock"`
}

// BodyLock is the cross-process lock on the body: how the spec declares it
// and whether a physical call of this session holds it now.
type BodyLock struct {
	Mode string `json:"mode,omitempty"` // wait | refuse | none
	Name string `json:"name,omitempty"`
	// Held is true from a physical call's tool_call event to its
	// tool_result: the process holds the lock while any motion runs. A
	// motion given up on (a timeout) may run on after its result; Uncertain
	// then says so.
	Held bool   `json:"held"`
	Tool string `json:"tool,omitempty"`
	Turn int    `json:"turn,omitempty"`
}

// liveView is what the server tracks of the session between events.
type liveView struct {
	mu       sync.Mutex
	motion   map[string]BodyLock // physical calls running, by call id
	health   []byte              // the last health sent, encoded
	notes    *engine.TaskNotes   // the last notes sent
	noteSent bool
}

func newLiveView() *liveView { return &liveView{motion: map[string]BodyLock{}} }

// observe follows physical calls from their call to their result.
func (v *liveView) observe(sess Session, ev runlog.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch ev.Kind {
	case runlog.EventToolCall:
		if lk, ok := sess.(toolLookup); ok {
			if rt, ok := lk.Lookup(ev.Tool); ok && rt.Contract.Physical {
				v.motion[ev.CallID] = BodyLock{Held: true, Tool: ev.Tool, Turn: ev.Turn}
			}
		}
	case runlog.EventToolResult:
		delete(v.motion, ev.CallID)
	}
}

// startTask makes the task's stream open with the health and notes as
// they are, whatever an earlier task's stream last said.
func (v *liveView) startTask() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.health, v.noteSent = nil, false
}

// endTask forgets the calls of a task that ended.
func (v *liveView) endTask() {
	v.mu.Lock()
	defer v.mu.Unlock()
	clear(v.motion)
}

// healthOf is the session's health now.
func (v *liveView) healthOf(sess Session, red *redact.Redactor) Health {
	h := Health{Toolsets: []engine.ToolsetHealth{}}
	if hr, ok := sess.(healthReporter); ok {
		h.Toolsets = hr.Health()
	}
	for _, t := range h.Toolsets {
		h.Restarts += t.Restarts
		if h.Uncertain == "" && t.Uncertain != "" {
			h.Uncertain, h.UncertainToolset, h.UncertainSince = t.Uncertain, t.Toolset, t.UncertainSince
		}
		for _, m := range t.Moving { // toolsets sharing a body report its motions alike
			if !slices.Contains(h.Moving, m) {
				h.Moving = append(h.Moving, m)
			}
		}
	}
	if sh, ok := sess.(specHolder); ok && sh.Spec() != nil {
		e := sh.Spec().Embodiment
		h.BodyLock.Mode, h.BodyLock.Name = e.Lock.Mode, e.Lock.Name
		if h.BodyLock.Name == "" && h.BodyLock.Mode != "none" {
			h.BodyLock.Name = e.Name
		}
	}
	v.mu.Lock()
	ids := slices.Sorted(maps.Keys(v.motion))
	if len(ids) > 0 {
		m := v.motion[ids[0]]
		h.BodyLock.Held, h.BodyLock.Tool, h.BodyLock.Turn = true, m.Tool, m.Turn
	}
	v.mu.Unlock()
	return redact.Value(red, h)
}

// healthChanged returns the health when it differs from the last sent.
func (v *liveView) healthChanged(sess Session, red *redact.Redactor) (Health, bool) {
	h := v.healthOf(sess, red)
	b, err := json.Marshal(h)
	if err != nil {
		return h, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if string(b) == string(v.health) {
		return h, false
	}
	v.health = b
	return h, true
}

// notesChanged reads the running task's notes, on the task's goroutine
// (see engine.Harness.RunningTaskNotes), and returns them when they differ
// from the last sent.
func (v *liveView) notesChanged(sess Session, red *redact.Redactor) (engine.TaskNotes, bool) {
	nr, ok := sess.(notesReader)
	if !ok {
		return engine.TaskNotes{}, false
	}
	n, ok := nr.RunningTaskNotes()
	if !ok {
		return n, false
	}
	n = redact.Value(red, n)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.noteSent && sameNotes(*v.notes, n) {
		return n, false
	}
	v.notes, v.noteSent = &n, true
	return n, true
}

// lastNotes is a copy of the notes last sent (a status view).
func (v *liveView) lastNotes() *engine.TaskNotes {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.notes == nil {
		return nil
	}
	n := *v.notes
	n.Timeline = slices.Clone(n.Timeline)
	return &n
}

func sameNotes(a, b engine.TaskNotes) bool {
	return a.Goal == b.Goal && a.Phase == b.Phase && slices.Equal(a.Timeline, b.Timeline)
}
