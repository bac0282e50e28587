package wire_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

func TestGarbageFramesAreCountedAndTheSocketKept(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{Faults: rosbridgetest.Faults{Garbage: true}})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL()))
	// Frames are read in order: once the second reply is here, the burst
	// on connect and the one after the first reply were read.
	for range 2 {
		if _, err := c.CallService(wait(t), "/dock", nil); err != nil {
			t.Fatal(err)
		}
	}
	st := c.Stats()
	if st.Garbage < 2*rosbridgetest.GarbageFrames || st.Reconnects != 0 {
		t.Errorf("stats %+v: want at least %d garbage frames and no reconnect", st, 2*rosbridgetest.GarbageFrames)
	}
	got := ev.reasons()
	for _, r := range []string{wire.GarbageInvalidJSON, wire.GarbageNotMessage, wire.GarbageUnknownOp,
		wire.GarbageBadFragment, wire.GarbageUnmatched, wire.GarbageBinary} {
		if got[r] < 2 {
			t.Errorf("reason %q counted %d times, want ≥2 (all: %v)", r, got[r], got)
		}
	}
}

func TestFragmentedMessagesAreReassembled(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{FragmentSize: 100})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL()))
	ctx := wait(t)
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "/scan", Type: rosbridgetest.TypeLaserScan}); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitMessage(ctx, "/scan", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var s laserScan
	if err := json.Unmarshal(m.Data, &s); err != nil {
		t.Fatal(err)
	}
	if r, err := wire.Floats(s.Ranges); err != nil || len(r) != 360 {
		t.Fatalf("ranges: %d, %v", len(r), err)
	}
	raw, err := c.CallService(ctx, "/rosapi/message_details", map[string]string{"type": rosbridgetest.TypeOdometry})
	if err != nil || len(raw) < 500 {
		t.Fatalf("a fragmented reply: %d bytes, %v", len(raw), err)
	}
	g, err := c.SendGoal(ctx, navGoal(0.3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := g.Wait(ctx); err != nil || r.Status != wire.StatusSucceeded {
		t.Fatalf("goal: %+v, %v", r, err)
	}
	if st := srv.State(); st.FragmentsSent < 10 {
		t.Errorf("only %d fragments sent: the test checked little", st.FragmentsSent)
	}
	if n := c.Stats().Garbage; n != 0 {
		t.Errorf("%d garbage frames: %v", n, ev.reasons())
	}
}

func TestFragmentBounds(t *testing.T) {
	for name, opts := range map[string]wire.Options{
		"bytes":     {MaxMessageBytes: 3000},
		"fragments": {MaxFragments: 20},
	} {
		t.Run(name, func(t *testing.T) {
			srv := startFake(t, rosbridgetest.Options{FragmentSize: 100})
			ev := newEvents()
			o := ev.options(srv.URL())
			o.MaxMessageBytes, o.MaxFragments = opts.MaxMessageBytes, opts.MaxFragments
			c := dial(t, o)
			if err := c.Subscribe(wait(t), wire.Subscription{Topic: "/scan", Type: rosbridgetest.TypeLaserScan}); err != nil {
				t.Fatal(err)
			}
			// A scan is about 8 KB: 80 fragments. Two scans refused, then a
			// small reply still gets through on the same socket.
			until(t, c, "two scans refused", func() bool { return ev.reasons()[wire.GarbageFragmentBounds] >= 2 })
			if _, ok := c.Latest("/scan"); ok {
				t.Error("a scan past the bounds was delivered")
			}
			if _, err := c.CallService(wait(t), "/rosapi/get_ros_version", nil); err != nil {
				t.Fatal(err)
			}
			if c.Generation() != 1 {
				t.Errorf("generation %d: the socket was dropped", c.Generation())
			}
		})
	}
}

func TestBareNonFiniteTokensAreReadAsNull(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{Faults: rosbridgetest.Faults{BareNonFinite: true}})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "/scan", Type: rosbridgetest.TypeLaserScan}); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitMessage(ctx, "/scan", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var s laserScan
	if err := json.Unmarshal(m.Data, &s); err != nil {
		t.Fatal(err)
	}
	r, err := wire.Floats(s.Ranges)
	if err != nil {
		t.Fatal(err)
	}
	nan := 0
	for _, v := range r {
		if math.IsNaN(v) {
			nan++
		}
	}
	if st := c.Stats(); nan == 0 || st.NonFiniteRepaired == 0 || st.Garbage != 0 {
		t.Errorf("%d NaN ranges, stats %+v", nan, st)
	}
}

func TestOversizedFrameIsDroppedAndTheSocketKept(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	ev := newEvents()
	o := ev.options(srv.URL())
	o.MaxFrameBytes = 4000 // a scan is about 8 KB, odometry under 1 KB
	c := dial(t, o)
	ctx := wait(t)
	for _, s := range []wire.Subscription{{Topic: "/scan"}, {Topic: "/odom"}} {
		if err := c.Subscribe(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	until(t, c, "a scan refused", func() bool { return ev.reasons()[wire.GarbageTooLarge] >= 1 })
	if _, ok := c.Latest("/scan"); ok {
		t.Error("an oversized scan was delivered")
	}
	if c.Generation() != 1 || c.Stats().Reconnects != 0 {
		t.Errorf("generation %d, stats %+v: an oversized frame dropped the socket", c.Generation(), c.Stats())
	}
}
