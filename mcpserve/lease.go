package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Holder is who holds the body: an MCP session (its client's name and
// version from initialize, and its session id) or another face of the
// session (serve's task API), named so a refusal tells a person whom to ask.
type Holder struct {
	// Client names the holder: an MCP client's name and version, or
	// "thea serve task API".
	Client string
	// Session is the MCP session id, or the serve task ("task 3").
	Session string
	// Releases says how the holder gives the body back.
	Releases string
}

func (h Holder) String() string {
	if h.Session == "" {
		return h.Client
	}
	return fmt.Sprintf("%s (session %s)", h.Client, h.Session)
}

// HeldError is the refusal a second client gets: it names the holder and
// how the body is released.
type HeldError struct {
	Holder Holder
	Since  time.Time
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("the robot's body is held by %s since %s: physical tools and tasks are refused to other clients "+
		"until it is released (%s); read-only tools stay open",
		e.Holder, e.Since.UTC().Format(time.RFC3339), e.Holder.Releases)
}

// ErrHeld matches every HeldError (errors.Is).
var ErrHeld = errors.New("the body is held by another client")

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Lease gives the body to one controlling client at a time. The first MCP
// session to call a physical tool (or begin a task) takes it; it keeps it
// until it ends its task, disconnects, or stays idle (no physical call
// running or begun) for the lease's idle bound. One Lease is shared by every
// face of a session (stdio, /mcp, serve's task API), so two of them never
// move one body at once; across processes the body lock does that.
type Lease struct {
	idle time.Duration
	now  func() time.Time

	mu       sync.Mutex
	holder   *Holder
	since    time.Time
	last     time.Time // when the holder's last call ended
	inFlight int       // the holder's calls running now
}

// NewLease makes a lease that lapses after idle without a call (zero: never
// by idleness); now is the clock (time.Now when nil).
func NewLease(idle time.Duration, now func() time.Time) *Lease {
	if now == nil {
		now = time.Now
	}
	return &Lease{idle: idle, now: now}
}

// Acquire gives the body to h for one call (or one task) unless another
// holder has it; done ends that call and starts the idle clock. A holder
// may acquire again while it holds the body. The refusal is a *HeldError.
func (l *Lease) Acquire(h Holder) (done func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.holder != nil && !l.sameLocked(h) && !l.lapsedLocked(now) {
		return nil, &HeldError{Holder: *l.holder, Since: l.since}
	}
	if l.holder == nil || !l.sameLocked(h) {
		held := h
		l.holder, l.since, l.inFlight = &held, now, 0
	}
	l.inFlight++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.holder != nil && l.sameLocked(h) && l.inFlight > 0 {
				l.inFlight--
				l.last = l.now()
			}
		})
	}, nil
}

// Release gives the body back when session holds it (end_task, a
// disconnect); it reports whether it did. A call still running keeps
// running: the body layer, not the lease, ends motions.
func (l *Lease) Release(session string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder == nil || l.holder.Session != session {
		return false
	}
	l.holder, l.inFlight = nil, 0
	return true
}

// Holder is who holds the body now, if anyone (a lapsed lease is free).
func (l *Lease) Holder() (Holder, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder == nil || l.lapsedLocked(l.now()) {
		return Holder{}, false
	}
	return *l.holder, true
}

func (l *Lease) sameLocked(h Holder) bool {
	return l.holder.Session == h.Session && l.holder.Client == h.Client
}

// lapsedLocked: the holder has run no call for the idle bound. A call in
// flight never lapses, however long the motion takes.
func (l *Lease) lapsedLocked(now time.Time) bool {
	if l.idle <= 0 || l.inFlight > 0 {
		return false
	}
	last := l.last
	if last.Before(l.since) {
		last = l.since
	}
	return now.Sub(last) >= l.idle
}

// Enter takes the body for a task of another face of the session (serve's
// task API names itself and the task); leave gives it back. It implements
// serve.TaskGate, so an HTTP task and an MCP client's task never run at
// once.
func (l *Lease) Enter(who, task string) (leave func(), err error) {
	h := Holder{Client: who, Session: task, Releases: "when that task ends or is stopped"}
	done, err := l.Acquire(h)
	if err != nil {
		return nil, err
	}
	return func() {
		done()
		l.Release(task)
	}, nil
}

// HolderOf names the MCP session a request came from: its client's name and
// version from initialize and its session id. ok is false outside an MCP
// request.
func HolderOf(ctx context.Context, idle time.Duration) (Holder, bool) {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return Holder{}, false
	}
	client := "an MCP client that gave no name"
	if ci, ok := s.(server.SessionWithClientInfo); ok {
		if info := ci.GetClientInfo(); info.Name != "" {
			client = fmt.Sprintf("MCP client %q %s", info.Name, info.Version)
		}
	}
	releases := "it calls end_task or disconnects"
	if idle > 0 {
		releases = fmt.Sprintf("it calls end_task, disconnects, or runs no physical call for %s", idle)
	}
	return Holder{Client: client, Session: s.SessionID(), Releases: releases}, true
}

// ReleaseOnDisconnect gives the body back when its holder's MCP session
// ends (stdin closed, an HTTP session deleted or expired).
func (l *Lease) ReleaseOnDisconnect(hooks *server.Hooks) {
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		l.Release(s.SessionID())
	})
}

// Take acquires the body for the MCP session ctx belongs to (see Acquire).
// Outside an MCP request it refuses: the body is lent only to a client
// that can be named.
func (l *Lease) Take(ctx context.Context) (done func(), err error) {
	h, ok := HolderOf(ctx, l.idle)
	if !ok {
		return nil, errors.New("no MCP session in the request: the body is lent only to a client that initialized")
	}
	return l.Acquire(h)
}
