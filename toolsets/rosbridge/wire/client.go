package wire

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Client is one rosbridge connection, re-established after every drop
// until Close. All its methods are safe for concurrent use.
type Client struct {
	opts  Options
	nonce string // makes goal ids unique across clients: rosbridge keeps goals server-wide
	seq   atomic.Uint64

	life    context.Context // ends at Close; bounds reads, writes and redials
	stop    context.CancelFunc
	stopped chan struct{} // closed when the supervising goroutine returns

	mu         sync.Mutex
	conn       *websocket.Conn // nil while disconnected
	gen        uint64          // generation of conn (or of the last one)
	downSince  time.Time
	calls      map[string]*pendingCall
	goals      map[string]*Goal // sent, no result yet, on a live connection
	orphans    map[string]*Goal // sent on a connection that dropped; not cancelled yet
	subs       map[string]*subscription
	subscribed map[string]bool // every topic ever subscribed: a publish after unsubscribe is late, not garbage
	adverts    map[string]string
	abandoned  idRing // ids of calls and goals their caller gave up on

	stats struct {
		frames, garbage, repaired, late, feedbackDropped, reconnects atomic.Uint64
	}
}

// Dial connects to rosbridge, retrying with Options.Backoff until ctx ends
// (ctx is the start timeout). A refused handshake (an HTTP 4xx: a wrong
// token, a wrong path) is not retried. The Client then keeps its socket up
// by itself until Close.
func Dial(ctx context.Context, opts Options) (*Client, error) {
	o, err := opts.normalized()
	if err != nil {
		return nil, err
	}
	c, err := newClient(o)
	if err != nil {
		return nil, err
	}
	conn, err := c.dialRetrying(ctx)
	if err != nil {
		return nil, err
	}
	c.life, c.stop = context.WithCancel(context.WithoutCancel(ctx))
	go c.supervise(conn, c.install(conn))
	return c, nil
}

// newClient makes a Client with no socket yet, from normalized options.
func newClient(o Options) (*Client, error) {
	var nonce [6]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, fmt.Errorf("rosbridge: id nonce: %w", err)
	}
	return &Client{
		opts:       o,
		nonce:      hex.EncodeToString(nonce[:]),
		stopped:    make(chan struct{}),
		calls:      map[string]*pendingCall{},
		goals:      map[string]*Goal{},
		orphans:    map[string]*Goal{},
		subs:       map[string]*subscription{},
		subscribed: map[string]bool{},
		adverts:    map[string]string{},
	}, nil
}

// permanentError is a handshake the server refused: retrying cannot help.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// dialOnce makes one handshake, bounded by ctx.
func (c *Client) dialOnce(ctx context.Context) (*websocket.Conn, error) {
	conn, resp, err := websocket.Dial(ctx, c.opts.URL, &websocket.DialOptions{
		HTTPClient: c.opts.HTTPClient,
		HTTPHeader: c.opts.Header,
	})
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 {
			return nil, &permanentError{fmt.Errorf("rosbridge %s refused the connection: HTTP %d %s",
				c.opts.URL, resp.StatusCode, http.StatusText(resp.StatusCode))}
		}
		return nil, fmt.Errorf("rosbridge %s: %w", c.opts.URL, err)
	}
	conn.SetReadLimit(-1) // frames are bounded by readFrame, which drops a large one without closing
	return conn, nil
}

// dialRetrying dials until it succeeds, the error is permanent or ctx ends.
func (c *Client) dialRetrying(ctx context.Context) (*websocket.Conn, error) {
	var wait time.Duration
	for {
		conn, err := c.dialOnce(ctx)
		if err == nil {
			return conn, nil
		}
		var perm *permanentError
		if errors.As(err, &perm) {
			return nil, err
		}
		wait = c.opts.Backoff.next(wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w (gave up: %w)", err, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// supervise owns the socket: it reads until the socket drops, fails what
// waited on it, and dials again, until Close.
func (c *Client) supervise(conn *websocket.Conn, gen uint64) {
	defer close(c.stopped)
	for {
		readDone := make(chan error, 1)
		go func() { readDone <- c.readLoop(conn, gen) }()
		if gen > 1 {
			c.restore(gen)
		}
		err := <-readDone
		_ = conn.CloseNow()
		orphans := c.markLost(gen, err)
		if c.life.Err() != nil {
			return
		}
		if c.opts.OnDisconnect != nil {
			c.opts.OnDisconnect(Disconnect{Err: err, Generation: gen, Orphans: orphans})
		}
		conn, err = c.dialRetrying(c.life)
		if err != nil {
			return // Close was called; markLost already failed everything
		}
		c.stats.reconnects.Add(1)
		gen = c.install(conn)
	}
}

// install makes conn the current socket and returns its generation.
func (c *Client) install(conn *websocket.Conn) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn = conn
	c.gen++
	return c.gen
}

// restore re-sends subscriptions and advertisements on a new socket, then
// tells the owner.
func (c *Client) restore(gen uint64) {
	c.mu.Lock()
	var frames []any
	for topic, typ := range c.adverts {
		frames = append(frames, advertiseFrame(c.newID("advertise", topic), topic, typ))
	}
	for _, s := range c.subs {
		frames = append(frames, s.frame)
	}
	down := time.Since(c.downSince)
	c.mu.Unlock()
	for _, f := range frames {
		if err := c.write(gen, f); err != nil {
			return // the socket dropped again; the next round restores
		}
	}
	if c.opts.OnReconnect != nil {
		c.opts.OnReconnect(Reconnect{Generation: gen, At: time.Now(), Downtime: down, Orphans: c.Orphans()})
	}
}

// markLost fails every call and goal waiting on connection gen and returns
// the goals orphaned by the drop.
func (c *Client) markLost(gen uint64, cause error) []*Goal {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.conn == nil {
		return nil
	}
	c.conn = nil
	c.downSince = time.Now()
	err := fmt.Errorf("%w: %w", ErrConnectionLost, cause)
	if c.life.Err() != nil {
		err = ErrClosed
	}
	for id, p := range c.calls {
		delete(c.calls, id)
		p.finish(nil, err)
	}
	var orphans []*Goal
	for id, g := range c.goals {
		delete(c.goals, id)
		c.orphans[id] = g
		orphans = append(orphans, g)
		g.finish(Result{}, fmt.Errorf("goal %s on %s: %w; it may still be running", g.id, g.action, err))
	}
	return orphans
}

// Close ends the connection and stops reconnecting. Pending calls and
// goals fail with ErrClosed; goals already accepted by rosbridge keep
// running there (cancel them first).
func (c *Client) Close() error {
	c.stop()
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		closePolitely(conn, websocket.StatusNormalClosure, time.Second)
	}
	<-c.stopped
	return nil
}

// Connected reports whether a socket is up now.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn != nil
}

// Drop closes the current socket, as a network cut does: what waited on
// it fails as lost (its goals become orphans), and the client reconnects by
// itself. It reports whether a socket was up to drop.
//
// The close is polite, bounded by grace: a close handshake means rosbridge
// has read every frame written before it, so a stop published just before
// the drop (a zero velocity, an e-stop) reaches the robot before anything
// sent on the next socket, and is not discarded by a reset (a socket shut
// with unread data in it is reset, and the peer may drop what it had not
// yet read). A wedged server that never answers the close is cut after
// grace.
func (c *Client) Drop(grace time.Duration) bool {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn == nil {
		return false
	}
	closePolitely(conn, websocket.StatusGoingAway, grace)
	return true
}

// closePolitely closes conn with a close handshake bounded by grace, then
// cuts it: a hung server must not hang the caller.
func closePolitely(conn *websocket.Conn, code websocket.StatusCode, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		_ = conn.Close(code, "")
		close(done)
	}()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		_ = conn.CloseNow()
	}
}

// Generation is the number of the current (or last) connection; it grows
// by one at every reconnect.
func (c *Client) Generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// Stats returns the counters.
func (c *Client) Stats() Stats {
	return Stats{
		Frames:            c.stats.frames.Load(),
		Garbage:           c.stats.garbage.Load(),
		NonFiniteRepaired: c.stats.repaired.Load(),
		Late:              c.stats.late.Load(),
		FeedbackDropped:   c.stats.feedbackDropped.Load(),
		Reconnects:        c.stats.reconnects.Load(),
	}
}

// Ping sends a WebSocket ping and waits for the pong: the socket's
// liveness, not the robot's.
func (c *Client) Ping(ctx context.Context) error {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn == nil {
		return ErrNotConnected
	}
	if err := conn.Ping(ctx); err != nil {
		return fmt.Errorf("rosbridge ping: %w", err)
	}
	return nil
}

// newID makes an operation id: readable in a server's log, unique across
// clients.
func (c *Client) newID(op, name string) string {
	return fmt.Sprintf("%s:%s:%s-%d", op, name, c.nonce, c.seq.Add(1))
}

// current returns the socket and its generation, or ErrNotConnected.
func (c *Client) current() (*websocket.Conn, uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.life.Err() != nil {
		return nil, c.gen, ErrClosed
	}
	if c.conn == nil {
		return nil, c.gen, ErrNotConnected
	}
	return c.conn, c.gen, nil
}

// write sends one frame on connection gen, bounded by WriteTimeout.
func (c *Client) write(gen uint64, frame any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return fmt.Errorf("rosbridge: encode frame: %w", err)
	}
	c.mu.Lock()
	conn := c.conn
	if c.gen != gen {
		conn = nil
	}
	c.mu.Unlock()
	if conn == nil {
		return ErrConnectionLost
	}
	ctx, cancel := context.WithTimeout(c.life, c.opts.WriteTimeout)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("%w: write: %w", ErrConnectionLost, err)
	}
	return nil
}

// send writes one frame on the current socket after checking ctx.
func (c *Client) send(ctx context.Context, frame any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, gen, err := c.current()
	if err != nil {
		return err
	}
	return c.write(gen, frame)
}
