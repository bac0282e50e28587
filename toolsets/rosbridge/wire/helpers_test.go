package wire_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

func TestMain(m *testing.M) {
	if code, ok := rosbridgetest.ChildMain(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// wait is the bound of every wait in these tests.
func wait(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	t.Cleanup(cancel)
	return ctx
}

// startFake starts an in-process fake rosbridge.
func startFake(t *testing.T, opts rosbridgetest.Options) *rosbridgetest.Server {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// startChild starts a fake rosbridge in a child process (this test binary).
func startChild(t *testing.T, args ...string) *rosbridgetest.Process {
	t.Helper()
	p, err := rosbridgetest.StartProcess(wait(t), os.Args[0], args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Stop(testtime.Scale(5 * time.Second)); err != nil {
			t.Logf("child: %v; stderr:\n%s", err, p.Stderr())
		}
	})
	return p
}

// events records what a Client reports through its callbacks.
type events struct {
	mu          sync.Mutex
	garbage     []wire.Garbage
	disconnects []wire.Disconnect
	reconnects  []wire.Reconnect
	statuses    []wire.Status
	reconnected chan wire.Reconnect
}

func newEvents() *events { return &events{reconnected: make(chan wire.Reconnect, 8)} }

func (e *events) options(url string) wire.Options {
	return wire.Options{
		URL: url,
		OnGarbage: func(g wire.Garbage) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.garbage = append(e.garbage, g)
		},
		OnStatus: func(s wire.Status) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.statuses = append(e.statuses, s)
		},
		OnDisconnect: func(d wire.Disconnect) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.disconnects = append(e.disconnects, d)
		},
		OnReconnect: func(r wire.Reconnect) {
			e.mu.Lock()
			e.reconnects = append(e.reconnects, r)
			e.mu.Unlock()
			select { // a test reads the first few; more never block the client
			case e.reconnected <- r:
			default:
			}
		},
		Backoff: wire.Backoff{Initial: 10 * time.Millisecond, Max: 200 * time.Millisecond},
	}
}

func (e *events) reasons() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]int{}
	for _, g := range e.garbage {
		out[g.Reason]++
	}
	return out
}

// dial connects a Client and closes it at the end of the test.
func dial(t *testing.T, opts wire.Options) *wire.Client {
	t.Helper()
	c, err := wire.Dial(wait(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// remoteState reads the fake's state through its /rosbridgetest/state
// service, as a test must for a fake in another process.
func remoteState(t *testing.T, c *wire.Client) rosbridgetest.State {
	t.Helper()
	raw, err := c.CallService(wait(t), rosbridgetest.ServiceState, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st rosbridgetest.State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("state: %v: %s", err, raw)
	}
	return st
}

// until re-checks cond at every odometry message (25 Hz) until it holds:
// the robot's own clock paces the wait, never a sleep.
func until(t *testing.T, c *wire.Client, what string, cond func() bool) {
	t.Helper()
	ctx := wait(t)
	if _, ok := c.Latest(rosbridgetest.TopicOdom); !ok {
		if err := c.Subscribe(ctx, wire.Subscription{Topic: rosbridgetest.TopicOdom, Type: rosbridgetest.TypeOdometry}); err != nil &&
			!strings.Contains(err.Error(), "already subscribed") {
			t.Fatal(err)
		}
	}
	last := time.Time{}
	for !cond() {
		m, err := c.WaitMessage(ctx, rosbridgetest.TopicOdom, last)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		last = m.Received
	}
}

// scripted is a hand-driven rosbridge server: every frame a client sends
// goes to reply, which answers with raw frames. It makes the malformed and
// mismatched replies a real server sends only by accident.
type scripted struct {
	URL       string
	connected chan struct{} // one value per accepted socket
	mu        sync.Mutex
	conns     []*websocket.Conn
}

func startScripted(t *testing.T, reply func(frame map[string]any) [][]byte) *scripted {
	t.Helper()
	s := &scripted{connected: make(chan struct{}, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		conn.SetReadLimit(-1)
		s.mu.Lock()
		s.conns = append(s.conns, conn)
		s.mu.Unlock()
		s.connected <- struct{}{}
		defer conn.CloseNow()
		for {
			_, data, err := conn.Read(r.Context())
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			for _, out := range reply(m) {
				if err := conn.Write(r.Context(), websocket.MessageText, out); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(func() {
		s.mu.Lock()
		for _, c := range s.conns {
			_ = c.CloseNow()
		}
		s.mu.Unlock()
		srv.Close()
	})
	s.URL = "ws" + strings.TrimPrefix(srv.URL, "http")
	return s
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
