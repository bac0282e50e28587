package serve

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
)

// Connection bounds. Who a client is becomes known only after its request
// headers are read (the bearer token, or, without one, a loopback Host), so
// every connection starts unproven and counts against two pools: the
// unproven connections of one client address, and those of all clients.
// A full pool makes room by closing its oldest connection, never by
// refusing the new one: a stalled client has held its slot longest, while
// the operator's new connection sends its headers at once and is proven
// before many more arrive. A connection that has carried an authorized
// request is proven and leaves the pools; only the total bound counts it.
// At that bound the connection that has waited longest without being
// served gives way: since it connected, or since its last answer, it has
// sent no request, or not all of one (its headers, or a body it declared).
// So a fresh connection is never closed for a stalled one, whoever holds
// the stalled ones (without a token every loopback client is trusted). A
// connection being served (an event stream, a handler) is never closed;
// when every slot is, the new connection is. Accept never stops, and the
// total stays well below the open-file limit.

// limits are the resolved bounds of a connLimiter.
type limits struct {
	total    int // open connections, proven or not
	unproven int // connections that have not carried an authorized request
	perIP    int // unproven connections of one client address
}

// Connection bound defaults.
const (
	defaultMaxConns      = 4096
	defaultMaxConnsPerIP = 256
)

// resolveLimits fills the defaults and keeps the total below half the
// open-file limit (0 when unknown): the session's back-ends, run logs and
// the listener need descriptors too.
func resolveLimits(cfg Config, fileLimit uint64) limits {
	l := limits{total: cfg.MaxConns, perIP: cfg.MaxConnsPerIP}
	if l.total <= 0 {
		l.total = defaultMaxConns
	}
	if half := fileLimit / 2; fileLimit > 0 && uint64(l.total) > half {
		l.total = int(max(half, 2))
	}
	// An eighth of the total is never taken by unproven connections.
	l.unproven = max(l.total-l.total/8, 1)
	if l.perIP <= 0 {
		l.perIP = defaultMaxConnsPerIP
	}
	l.perIP = min(l.perIP, l.unproven)
	return l
}

// connLimiter is a net.Listener that holds at most limits.total
// connections, closing the longest-stalled ones to admit new ones.
type connLimiter struct {
	net.Listener
	lim limits

	mu       sync.Mutex
	open     int
	unproven list.List // *trackedConn, oldest first
	byIP     map[netip.Addr]*list.List
	// stalled holds every connection not being served, longest waiting
	// first: each joins at the back when it connects or its answer ends,
	// and leaves when a request of it is admitted and its body read.
	stalled list.List

	shed atomic.Int64 // connections closed or refused to keep the bounds
}

func newConnLimiter(ln net.Listener, lim limits) *connLimiter {
	return &connLimiter{Listener: ln, lim: lim, byIP: map[netip.Addr]*list.List{}}
}

// trackedConn is one connection the limiter counts. Its fields other than
// Conn and key are guarded by the limiter's mutex.
type trackedConn struct {
	net.Conn
	l   *connLimiter
	key netip.Addr

	tracked   bool
	proven    bool
	all, mine *list.Element // in the unproven pools
	stall     *list.Element // in stalled
}

// Accept returns the next connection within the bounds; it closes older
// connections to make room and returns an error only from the listener.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		tc, shed := l.admit(c)
		for _, v := range shed {
			_ = v.Conn.Close() // its reader ends; nothing to tell a stalled client
		}
		l.shed.Add(int64(len(shed)))
		if tc != nil {
			return tc, nil
		}
	}
}

// admit counts c, choosing the connections to close to make room; a nil
// connection means c itself is among them (every slot is being served).
func (l *connLimiter) admit(c net.Conn) (*trackedConn, []*trackedConn) {
	tc := &trackedConn{Conn: c, l: l, key: clientKey(c.RemoteAddr())}
	l.mu.Lock()
	defer l.mu.Unlock()
	var shed []*trackedConn
	drop := func(v *trackedConn) {
		l.untrackLocked(v)
		shed = append(shed, v)
	}
	if q := l.byIP[tc.key]; q != nil && q.Len() >= l.lim.perIP {
		drop(q.Front().Value.(*trackedConn))
	}
	if l.unproven.Len() >= l.lim.unproven {
		drop(l.unproven.Front().Value.(*trackedConn))
	}
	if l.open >= l.lim.total {
		front := l.stalled.Front()
		if front == nil {
			return nil, append(shed, tc)
		}
		drop(front.Value.(*trackedConn))
	}
	tc.tracked = true
	l.open++
	tc.stall = l.stalled.PushBack(tc)
	tc.all = l.unproven.PushBack(tc)
	q := l.byIP[tc.key]
	if q == nil {
		q = list.New()
		l.byIP[tc.key] = q
	}
	tc.mine = q.PushBack(tc)
	return tc, shed
}

// untrackLocked stops counting c; it is idempotent.
func (l *connLimiter) untrackLocked(c *trackedConn) {
	if !c.tracked {
		return
	}
	c.tracked = false
	l.open--
	l.unstallLocked(c)
	if !c.proven {
		l.unlinkLocked(c)
	}
}

// unstallLocked takes c out of the stalled list.
func (l *connLimiter) unstallLocked(c *trackedConn) {
	if c.stall != nil {
		l.stalled.Remove(c.stall)
		c.stall = nil
	}
}

// unlinkLocked removes an unproven c from the pools.
func (l *connLimiter) unlinkLocked(c *trackedConn) {
	l.unproven.Remove(c.all)
	if q := l.byIP[c.key]; q != nil {
		q.Remove(c.mine)
		if q.Len() == 0 {
			delete(l.byIP, c.key)
		}
	}
	c.all, c.mine = nil, nil
}

// Close stops counting the connection and closes it.
func (c *trackedConn) Close() error {
	c.l.mu.Lock()
	c.l.untrackLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// prove marks the connection as having carried an authorized request: it
// leaves the unproven pools. A nil c (a handler served without the
// limiter) is a no-op, like the other methods.
func (c *trackedConn) prove() {
	if c == nil {
		return
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if !c.tracked || c.proven {
		return
	}
	c.l.unlinkLocked(c)
	c.proven = true
}

// served records that a request of the connection is being served (its
// body, if any, read): it is not stalled until its answer ends.
func (c *trackedConn) served() {
	if c == nil {
		return
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	c.l.unstallLocked(c)
}

// connState is the http.Server's ConnState hook: a connection whose answer
// has ended waits again, from now.
func (l *connLimiter) connState(c net.Conn, st http.ConnState) {
	tc, ok := c.(*trackedConn)
	if !ok || st != http.StateIdle {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unstallLocked(tc)
	if tc.tracked {
		tc.stall = l.stalled.PushBack(tc)
	}
}

// closeStalled closes every connection not being served, which
// http.Server.Shutdown would otherwise wait for (one that never sends its
// headers or body) or close itself (idle ones).
func (l *connLimiter) closeStalled() {
	l.mu.Lock()
	var shed []*trackedConn
	for e := l.stalled.Front(); e != nil; e = e.Next() {
		shed = append(shed, e.Value.(*trackedConn))
	}
	for _, c := range shed {
		l.untrackLocked(c)
	}
	l.mu.Unlock()
	for _, c := range shed {
		_ = c.Conn.Close()
	}
	l.shed.Add(int64(len(shed)))
}

// counts reports the open and the unproven connections.
func (l *connLimiter) counts() (open, unproven int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open, l.unproven.Len()
}

// connKey is the request-context key of the request's trackedConn.
type connKey struct{}

// withConn is the http.Server's ConnContext hook.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*trackedConn); ok {
		return context.WithValue(ctx, connKey{}, tc)
	}
	return ctx
}

// connOf is the request's connection, nil when the server has no limiter.
func connOf(r *http.Request) *trackedConn {
	tc, _ := r.Context().Value(connKey{}).(*trackedConn)
	return tc
}

// clientKey is the address a per-client bound counts: an IPv4 address, or
// an IPv6 client's /64 (one host commonly holds a whole /64).
func clientKey(a net.Addr) netip.Addr {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.Addr{}
	}
	ip := tcp.AddrPort().Addr().Unmap().WithZone("")
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return ip
}
