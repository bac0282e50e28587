package wire_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// cancelOrphansOnReconnect is what the rosbridge kind does on reconnect:
// cancel every goal that may still be running.
func cancelOrphansOnReconnect(t *testing.T, opts *wire.Options) {
	inner := opts.OnReconnect
	opts.OnReconnect = func(r wire.Reconnect) {
		for _, g := range r.Orphans {
			if err := g.Cancel(t.Context()); err != nil {
				t.Errorf("cancel orphan %s: %v", g.ID(), err)
			}
		}
		inner(r)
	}
}

func TestDroppedSocketOrphansTheGoalAndReconnectCancelsIt(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	ev := newEvents()
	opts := ev.options(srv.URL())
	cancelOrphansOnReconnect(t, &opts)
	var c *wire.Client
	duringDrop := make(chan error, 1)
	stillMoving := make(chan bool, 1)
	opts.OnDisconnect = func(d wire.Disconnect) {
		ev.mu.Lock()
		ev.disconnects = append(ev.disconnects, d)
		ev.mu.Unlock()
		// Down: nothing is queued for later, and the goal drives on. Only
		// the first drop is the test's; a later one (a loaded machine can
		// see the fake drop again) must not block the client.
		_, err := c.CallService(t.Context(), "/dock", nil)
		select {
		case duringDrop <- err:
			stillMoving <- srv.State().Moving
		default:
		}
	}
	c = dial(t, opts)
	if err := c.Subscribe(wait(t), wire.Subscription{Topic: "/odom", Type: rosbridgetest.TypeOdometry}); err != nil {
		t.Fatal(err)
	}
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	if n := srv.DropConnections(); n != 1 {
		t.Fatalf("dropped %d sockets", n)
	}

	_, err = g.Wait(wait(t))
	if !errors.Is(err, wire.ErrConnectionLost) || !strings.Contains(err.Error(), "may still be running") {
		t.Fatalf("goal on a dropped socket: %v", err)
	}
	if err := <-duringDrop; !errors.Is(err, wire.ErrNotConnected) {
		t.Errorf("a call while down: %v, want ErrNotConnected", err)
	}
	if !<-stillMoving {
		t.Error("the goal stopped with the socket; rosbridge keeps running it")
	}
	var r wire.Reconnect
	select {
	case r = <-ev.reconnected:
	case <-wait(t).Done():
		t.Fatal("no reconnect")
	}
	if r.Generation != 2 || len(r.Orphans) != 1 || r.Orphans[0] != g {
		t.Fatalf("reconnect %+v", r)
	}
	ev.mu.Lock()
	d := ev.disconnects
	ev.mu.Unlock()
	if len(d) != 1 || d[0].Generation != 1 || len(d[0].Orphans) != 1 {
		t.Errorf("disconnects %+v", d)
	}

	until(t, c, "the orphaned goal to be cancelled", func() bool { return !srv.State().Moving })
	st := srv.State()
	if st.GoalsCanceled != 1 || st.ResultsLost != 1 || len(st.Goals) != 0 {
		t.Errorf("after the cancel: canceled %d, results lost %d, goals %+v", st.GoalsCanceled, st.ResultsLost, st.Goals)
	}
	if len(c.Orphans()) != 0 || c.Generation() != 2 || c.Stats().Reconnects != 1 {
		t.Errorf("orphans %d, generation %d, stats %+v", len(c.Orphans()), c.Generation(), c.Stats())
	}
	// The subscription came back by itself.
	m, err := c.WaitMessage(wait(t), "/odom", r.At)
	if err != nil || m.Generation != 2 {
		t.Errorf("odometry after the reconnect: %+v, %v", m, err)
	}
}

func TestSubprocessDropsSocketMidGoal(t *testing.T) {
	p := startChild(t, "-drop-mid-goal")
	ev := newEvents()
	opts := ev.options(p.URL)
	cancelOrphansOnReconnect(t, &opts)
	c := dial(t, opts)
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Wait(wait(t)); !errors.Is(err, wire.ErrConnectionLost) {
		t.Fatalf("goal: %v", err)
	}
	select {
	case r := <-ev.reconnected:
		if len(r.Orphans) != 1 || r.Orphans[0].ID() != g.ID() {
			t.Fatalf("reconnect %+v", r)
		}
	case <-wait(t).Done():
		t.Fatal("no reconnect")
	}
	until(t, c, "the child's robot to stop", func() bool { return !remoteState(t, c).Moving })
	st := remoteState(t, c)
	if st.GoalsCanceled != 1 || st.GoalsSucceeded != 0 || st.Accepted != 2 {
		t.Errorf("child state: canceled %d, succeeded %d, sockets accepted %d", st.GoalsCanceled, st.GoalsSucceeded, st.Accepted)
	}
}

func TestSubprocessKilledAndRestartedOnTheSamePort(t *testing.T) {
	first := startChild(t)
	ev := newEvents()
	c := dial(t, ev.options(first.URL))
	if err := c.Subscribe(wait(t), wire.Subscription{Topic: "/odom", Type: rosbridgetest.TypeOdometry}); err != nil {
		t.Fatal(err)
	}
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	first.Kill() // a crash: no close frame, no FIN from a live process
	if _, err := g.Wait(wait(t)); !errors.Is(err, wire.ErrConnectionLost) {
		t.Fatalf("goal: %v", err)
	}
	addr := strings.TrimPrefix(first.URL, "ws://")
	startChild(t, "-addr", addr)
	select {
	case r := <-ev.reconnected:
		if r.Generation != 2 || len(r.Orphans) != 1 {
			t.Fatalf("reconnect %+v", r)
		}
	case <-wait(t).Done():
		t.Fatal("no reconnect to the restarted server")
	}
	if _, err := c.WaitMessage(wait(t), "/odom", time.Now()); err != nil {
		t.Errorf("odometry from the restarted server: %v", err)
	}
}

func TestCloseFailsWhatWaits(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c, err := wire.Dial(wait(t), wire.Options{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Wait(wait(t)); !errors.Is(err, wire.ErrClosed) {
		t.Errorf("goal after Close: %v", err)
	}
	if _, err := c.CallService(wait(t), "/dock", nil); !errors.Is(err, wire.ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
	if c.Connected() {
		t.Error("connected after Close")
	}
}

func TestTokenHeader(t *testing.T) {
	const token = "s3cret-token"
	srv := startFake(t, rosbridgetest.Options{Token: token})
	_, err := wire.Dial(wait(t), wire.Options{URL: srv.URL(), Header: map[string][]string{"Authorization": {"Bearer wrong-token"}}})
	if err == nil || !strings.Contains(err.Error(), "401") || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wrong token: %v (want a 401 at once, not retries until the deadline)", err)
	}
	if strings.Contains(err.Error(), "wrong-token") {
		t.Errorf("the error shows the header value: %v", err)
	}
	c := dial(t, wire.Options{URL: srv.URL(), Header: map[string][]string{"Authorization": {"Bearer " + token}}})
	if _, err := c.CallService(wait(t), "/dock", nil); err != nil {
		t.Fatal(err)
	}
	if st := srv.State(); st.Refused != 1 || st.Accepted != 1 {
		t.Errorf("refused %d, accepted %d", st.Refused, st.Accepted)
	}
}

func TestDialGivesUpWithItsContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(200*time.Millisecond))
	defer cancel()
	_, err = wire.Dial(ctx, wire.Options{URL: "ws://" + addr, Backoff: wire.Backoff{Initial: time.Millisecond}})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "gave up") {
		t.Fatalf("%v", err)
	}
	for _, bad := range []string{"http://x", "ws://", "::"} {
		if _, err := wire.Dial(t.Context(), wire.Options{URL: bad}); err == nil {
			t.Errorf("url %q accepted", bad)
		}
	}
}
