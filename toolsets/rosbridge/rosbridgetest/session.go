package rosbridgetest

import (
	"context"
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// session is one client socket. Its subscriptions are guarded by
// Server.mu; frames go out through a queue so the simulation never waits
// on a slow client.
type session struct {
	srv  *Server
	conn *websocket.Conn
	out  chan outFrame
	ctx  context.Context
	stop context.CancelFunc

	closeOnce sync.Once
	// frozen is closed when the fault contract freezes this socket.
	frozen     chan struct{}
	freezeOnce sync.Once
	// ignoreCancel: the fault contract ignores this socket's cancels.
	ignoreCancel bool
	subs         map[string]*sessionSub // by topic with a leading slash
}

type sessionSub struct {
	sent     string // the topic name as the client wrote it: replies use it
	throttle time.Duration
	last     time.Time
	fragment int
}

type outFrame struct {
	data   []byte
	binary bool
	drop   bool // close the socket abruptly when this frame is reached
}

// queueLen bounds a session's outgoing queue. Topic messages beyond it are
// dropped, as rosbridge drops for a slow client; replies beyond it close
// the socket.
const queueLen = 1024

func newSession(s *Server, conn *websocket.Conn) *session {
	ctx, stop := context.WithCancel(s.life)
	return &session{srv: s, conn: conn, out: make(chan outFrame, queueLen), ctx: ctx, stop: stop,
		subs: map[string]*sessionSub{}, frozen: make(chan struct{})}
}

// run reads the client's frames until the socket ends; a writer runs
// beside it.
func (c *session) run() {
	go c.write()
	defer c.kill()
	for {
		typ, data, err := c.conn.Read(c.ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			c.srv.mu.Lock()
			c.srv.logf("binary frame from a client ignored (%d bytes)", len(data))
			c.srv.mu.Unlock()
			continue
		}
		if !c.handleFault(data) {
			c.handle(data)
		}
		select {
		case <-c.frozen: // read nothing more, answer no ping
			<-c.ctx.Done()
			return
		default:
		}
	}
}

// write sends queued frames in order.
func (c *session) write() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.frozen:
			<-c.ctx.Done()
			return
		case f := <-c.out:
			if f.drop {
				c.kill()
				return
			}
			typ := websocket.MessageText
			if f.binary {
				typ = websocket.MessageBinary
			}
			ctx, cancel := context.WithTimeout(c.ctx, 5*time.Second)
			err := c.conn.Write(ctx, typ, f.data)
			cancel()
			if err != nil {
				c.kill()
				return
			}
		}
	}
}

// kill closes the socket without a close frame and forgets the session.
func (c *session) kill() {
	c.closeOnce.Do(func() {
		c.stop()
		_ = c.conn.CloseNow()
		c.srv.mu.Lock()
		delete(c.srv.sessions, c)
		c.srv.mu.Unlock()
	})
}

func (c *session) isClosed() bool { return c.ctx.Err() != nil }

// enqueue marshals a frame and queues it, fragmented if it is too long.
// A control frame (a reply, a result) that does not fit closes the socket;
// a topic message that does not fit is dropped. It reports whether the
// frame was queued. Called with Server.mu held.
func (c *session) enqueue(frame map[string]any, control bool) bool {
	data, err := json.Marshal(frame)
	if err != nil {
		c.srv.logf("encode %v: %v", frame["op"], err)
		return false
	}
	id, _ := frame["id"].(string)
	return c.enqueueRaw(data, id, 0, control)
}

// enqueueRaw queues encoded JSON; fragSize is the subscriber's own
// fragment_size (0: none). Called with Server.mu held.
func (c *session) enqueueRaw(data []byte, id string, fragSize int, control bool) bool {
	if c.isClosed() {
		return false
	}
	size := c.srv.opts.FragmentSize
	if fragSize > 0 && (size <= 0 || fragSize < size) {
		size = fragSize
	}
	frames := [][]byte{data}
	if size > 0 && len(data) > size {
		frames = c.srv.fragment(data, id, size)
	}
	if len(c.out)+len(frames) > cap(c.out) {
		if control {
			c.srv.logf("client too slow: closing its socket")
			go c.kill()
		}
		return false
	}
	for _, f := range frames {
		c.out <- outFrame{data: f}
	}
	return true
}

// dropAfterQueued closes the socket once what is queued now is written.
// Called with Server.mu held.
func (c *session) dropAfterQueued() {
	select {
	case c.out <- outFrame{drop: true}:
	default:
		go c.kill()
	}
}

// fragment splits a message as rosbridge does: consecutive pieces of its
// JSON text, never inside a UTF-8 sequence, under the message's id or a
// fresh number. Called with Server.mu held.
func (s *Server) fragment(data []byte, id string, size int) [][]byte {
	var fid any = id
	if id == "" {
		fid = s.nextFragmentID()
	}
	var pieces []string
	for len(data) > 0 {
		n := min(size, len(data))
		for n < len(data) && n > 1 && !utf8.RuneStart(data[n]) {
			n--
		}
		pieces = append(pieces, string(data[:n]))
		data = data[n:]
	}
	s.fragmentsSent += len(pieces)
	out := make([][]byte, len(pieces))
	for i, p := range pieces {
		out[i], _ = json.Marshal(map[string]any{"op": "fragment", "id": fid, "data": p, "num": i, "total": len(pieces)})
	}
	return out
}

// sendGarbage queues GarbageFrames frames a client must refuse, one of
// them binary. Called with Server.mu held.
func (c *session) sendGarbage() {
	frames := []string{
		`this is not json`,
		`[1, 2, 3]`,
		`{"no_op": true}`,
		`{"op": "definitely_not_an_op"}`,
		`{"op": "fragment", "id": "garbage", "num": 5, "total": 2, "data": "x"}`,
		`{"op": "service_response", "id": "call_service:/nobody:0", "service": "/nobody", "result": true, "values": {}}`,
		`{"op": "action_result", "id": "send_action_goal:/nobody:0", "action": "/nobody", "status": 4, "result": true, "values": {}}`,
		`{"op": "publish", "topic": "/never_subscribed", "msg": {}}`,
	}
	for _, f := range frames {
		c.enqueueRaw([]byte(f), "", 0, false)
	}
	select {
	case c.out <- outFrame{data: []byte{0x00, 0x01, 0xfe, 0xff}, binary: true}:
	default:
	}
}
