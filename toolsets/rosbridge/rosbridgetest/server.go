package rosbridgetest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Server is a running fake rosbridge.
type Server struct {
	opts     Options
	types    typedefs
	services map[string]service
	ln       net.Listener
	http     *http.Server
	url      string
	life     context.Context
	stop     context.CancelFunc
	ticking  chan struct{} // closed when the simulation loop returns
	handlers sync.WaitGroup
	fault    *faultState // nil unless Options.FaultDir
	// arm is the arm's world, nil unless Options.Robot is RobotArm; it
	// is guarded by mu.
	arm *armWorld

	mu             sync.Mutex
	faults         Faults
	w              world
	noise          *noise // the sensors' noise (Options.Noise), drawn under mu
	sessions       map[*session]struct{}
	advertised     map[string]string // topics clients advertised, beyond the graph's
	fragSeq        int
	fragmentsSent  int
	accepted       int
	refused        int
	goalsReceived  int
	goalsSucceeded int
	goalsCanceled  int
	goalsAborted   int
	cancelsIgnored int
	resultsLost    int
	cmdVelCount    int
	maxMotions     int
	subsSeen       []SubscriptionState
	serviceCalls   map[string]int
	errors         []string
	// held topics are not published (a silent sensor); published counts
	// the messages sent per topic.
	held      map[string]bool
	published map[string]int
	latchSent map[latchKey]bool // subscriptions sent an extra latched topic
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves
// until ctx ends or Close.
func Start(ctx context.Context, addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("rosbridgetest: listen %s: %w", addr, err)
	}
	s := &Server{
		opts:         opts.withDefaults(),
		types:        newTypedefs(),
		services:     graphServices(opts.Robot),
		ln:           ln,
		url:          "ws://" + ln.Addr().String(),
		ticking:      make(chan struct{}),
		faults:       opts.Faults,
		w:            newWorld(),
		noise:        newNoise(opts.Noise, opts.Seed),
		sessions:     map[*session]struct{}{},
		advertised:   extraTopics(opts.Extra),
		serviceCalls: map[string]int{},
	}
	if opts.Robot == RobotArm {
		s.arm = newArmWorld()
	} else if opts.Robot != "" && opts.Robot != RobotTurtleBot {
		_ = ln.Close()
		return nil, fmt.Errorf("rosbridgetest: unknown robot %q (%s or %s)", opts.Robot, RobotTurtleBot, RobotArm)
	}
	s.opts.Graph.apply(s.services)
	if opts.Faults.NoActionDetails {
		delete(s.services, "/rosapi/action_goal_details")
	}
	if opts.FaultDir != "" {
		s.fault = newFaultState(opts.FaultDir)
	}
	s.life, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(ctx, s.stop)
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.http.Serve(ln) }() // returns ErrServerClosed at Close
	go s.simulate()
	return s, nil
}

// URL is the server's ws:// address.
func (s *Server) URL() string { return s.url }

// Close stops serving, drops every socket and stops the simulation.
func (s *Server) Close() error {
	s.stop()
	err := s.http.Close() // closes the listener; hijacked sockets are ours
	s.DropConnections()
	<-s.ticking
	s.handlers.Wait()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("rosbridgetest: close: %w", err)
	}
	return nil
}

// Done is closed when the server stops.
func (s *Server) Done() <-chan struct{} { return s.life.Done() }

// State snapshots the robot and the server's counters.
func (s *Server) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateLocked()
}

// SetFaults changes the misbehaviour switches from now on.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// DropConnections closes every open socket abruptly (no close frame), as
// a network cut does; goals keep running. It returns how many it closed.
func (s *Server) DropConnections() int {
	s.mu.Lock()
	list := make([]*session, 0, len(s.sessions))
	for c := range s.sessions {
		list = append(list, c)
	}
	s.mu.Unlock()
	for _, c := range list {
		c.kill()
	}
	return len(list)
}

// ServeHTTP accepts a WebSocket on any path, as rosbridge_websocket does.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.mu.Lock()
		s.logf("accept: %v", err)
		s.mu.Unlock()
		return
	}
	conn.SetReadLimit(64 << 20)
	s.handlers.Add(1)
	defer s.handlers.Done()
	c := newSession(s, conn)
	c.ignoreCancel = r.URL.Query().Get("cancel") == "ignore"
	s.mu.Lock()
	if s.life.Err() != nil {
		s.mu.Unlock()
		_ = conn.CloseNow()
		return
	}
	s.sessions[c] = struct{}{}
	s.accepted++
	if s.faults.Garbage {
		c.sendGarbage()
	}
	s.mu.Unlock()
	c.run()
}

// simulate steps the world every tick until the server stops.
func (s *Server) simulate() {
	defer close(s.ticking)
	t := time.NewTicker(s.opts.Tick)
	defer t.Stop()
	for {
		select {
		case <-s.life.Done():
			return
		case now := <-t.C:
			s.mu.Lock()
			s.step(now)
			s.mu.Unlock()
		}
	}
}

// logf records what rosbridge would log: on the server, never to a
// client. Called with s.mu held.
func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "rosbridgetest: %s\n", msg)
	}
	const keep = 50
	if len(s.errors) >= keep {
		s.errors = append(s.errors[:0], s.errors[1:]...)
	}
	s.errors = append(s.errors, msg)
}

// nextFragmentID numbers fragmented messages that carry no id of their
// own. It starts at 1: roslib drops fragments whose id is 0.
func (s *Server) nextFragmentID() int {
	s.fragSeq++
	return s.fragSeq
}
