package wire_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

func TestCallServiceAndRosapi(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}

	raw, err := c.CallService(ctx, "/dock", nil)
	if err != nil {
		t.Fatal(err)
	}
	var trig struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(raw, &trig); err != nil || !trig.Success || trig.Message != "docked" {
		t.Errorf("dock: %s (%v)", raw, err)
	}

	// roslib calls rosapi without the leading slash; the reply names the
	// service as sent and is matched by that name.
	raw, err = c.CallService(ctx, "rosapi/topics", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var topics struct{ Topics, Types []string }
	if err := json.Unmarshal(raw, &topics); err != nil {
		t.Fatal(err)
	}
	i := slices.Index(topics.Topics, "/scan")
	if i < 0 || topics.Types[i] != rosbridgetest.TypeLaserScan {
		t.Errorf("topics: %+v", topics)
	}

	raw, err = c.CallService(ctx, "/rosapi/action_servers", nil)
	if err != nil || !strings.Contains(string(raw), `"/navigate_to_pose"`) {
		t.Errorf("action servers: %s, %v", raw, err)
	}
	raw, err = c.CallService(ctx, "/rosapi/message_details", map[string]string{"type": rosbridgetest.TypeLaserScan})
	if err != nil {
		t.Fatal(err)
	}
	var details struct {
		Typedefs []struct {
			Type       string   `json:"type"`
			Fieldnames []string `json:"fieldnames"`
		} `json:"typedefs"`
	}
	if err := json.Unmarshal(raw, &details); err != nil || len(details.Typedefs) < 3 {
		t.Fatalf("message details: %s (%v)", raw, err)
	}
	if d := details.Typedefs[0]; d.Type != "sensor_msgs/LaserScan" || !slices.Contains(d.Fieldnames, "ranges") {
		t.Errorf("first typedef: %+v", d)
	}
	if got := srv.State().ServiceCalls["rosapi/topics"]; got != 1 {
		t.Errorf("the server saw %d calls named rosapi/topics", got)
	}
}

func TestServiceFailureIsAServiceError(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	_, err := c.CallService(wait(t), "/no_such_service", nil)
	var se *wire.ServiceError
	if !errors.As(err, &se) || se.Service != "/no_such_service" || !strings.Contains(se.Message, "does not exist") {
		t.Fatalf("%v", err)
	}
	// A request field the service type lacks: rosbridge refuses it.
	_, err = c.CallService(wait(t), "/dock", map[string]any{"force": true})
	if !errors.As(err, &se) || !strings.Contains(se.Message, "does not have a field force") {
		t.Fatalf("%v", err)
	}
}

func TestReplyNamingAnotherServiceIsRefused(t *testing.T) {
	// A reply with our id but another service's name: never taken as ours.
	srv := startScripted(t, func(f map[string]any) [][]byte {
		if f["op"] != "call_service" {
			return nil
		}
		wrong := mustJSON(t, map[string]any{"op": "service_response", "id": f["id"], "service": "/other", "result": true, "values": map[string]any{"x": 1}})
		right := mustJSON(t, map[string]any{"op": "service_response", "id": f["id"], "service": f["service"], "result": true, "values": map[string]any{"x": 2}})
		return [][]byte{wrong, right}
	})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL))
	raw, err := c.CallService(wait(t), "/mine", nil)
	if err != nil || string(raw) != `{"x":2}` {
		t.Fatalf("%s, %v", raw, err)
	}
	if got := ev.reasons()[wire.GarbageUnmatched]; got != 1 || c.Stats().Garbage != 1 {
		t.Errorf("unmatched replies counted: %d (stats %+v)", got, c.Stats())
	}
}

func TestLateReplyIsNotGarbage(t *testing.T) {
	release := make(chan map[string]any, 1)
	srv := startScripted(t, func(f map[string]any) [][]byte {
		switch f["op"] {
		case "call_service":
			if f["service"] == "/slow" {
				if _, ok := f["timeout"].(float64); !ok {
					t.Errorf("a call with a deadline sent no timeout: %v", f)
				}
				release <- f
				return nil
			}
			// Answer the slow call first, then this one: the slow reply
			// arrives after its caller gave up.
			slow := <-release
			return [][]byte{
				mustJSON(t, map[string]any{"op": "service_response", "id": slow["id"], "service": "/slow", "result": true}),
				mustJSON(t, map[string]any{"op": "service_response", "id": f["id"], "service": f["service"], "result": true}),
			}
		}
		return nil
	})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL))
	short, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.CallService(short, "/slow", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow call: %v", err)
	}
	raw, err := c.CallService(wait(t), "/fast", nil)
	if err != nil || string(raw) != "{}" {
		t.Fatalf("fast call: %s, %v (a response without values is an empty message)", raw, err)
	}
	if st := c.Stats(); st.Late != 1 || st.Garbage != 0 {
		t.Errorf("stats %+v: want one late reply, no garbage", st)
	}
}

func TestStatusErrorFailsTheCallItNames(t *testing.T) {
	srv := startScripted(t, func(f map[string]any) [][]byte {
		if f["op"] != "call_service" {
			return nil
		}
		return [][]byte{
			mustJSON(t, map[string]any{"op": "status", "level": "warning", "msg": "just saying"}),
			mustJSON(t, map[string]any{"op": "status", "level": "error", "id": f["id"], "msg": "call_service InvalidServiceException: /x"}),
		}
	})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL))
	_, err := c.CallService(wait(t), "/x", nil)
	var se *wire.ServiceError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "InvalidServiceException") {
		t.Fatalf("%v", err)
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.statuses) != 1 || ev.statuses[0].Level != "warning" {
		t.Errorf("statuses passed on: %+v", ev.statuses)
	}
}

func TestCallWithoutAnswerEndsWithItsContext(t *testing.T) {
	srv := startScripted(t, func(map[string]any) [][]byte { return nil })
	c := dial(t, wire.Options{URL: srv.URL})
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(100*time.Millisecond))
	defer cancel()
	_, err := c.CallService(ctx, "/hangs", nil)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "/hangs") {
		t.Fatalf("%v", err)
	}
	if !c.Connected() {
		t.Error("a caller giving up dropped the socket")
	}
}

// lateTimer is a context past its deadline whose timer has not fired yet,
// as on a loaded machine: it ends (DeadlineExceeded) only once a caller
// waits on Done.
type lateTimer struct {
	context.Context
	waited func() // called at every Done
}

func (c *lateTimer) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }
func (c *lateTimer) Done() <-chan struct{}       { c.waited(); return c.Context.Done() }
func (c *lateTimer) Err() error {
	if c.Context.Err() != nil {
		return context.DeadlineExceeded
	}
	return nil
}

// A call whose deadline has passed before its context ended reports the
// timeout only once the context has ended, so the caller's ctx.Err() agrees
// with the error (the body layer classes a failure by ctx.Err(): a
// "context deadline exceeded" with ctx.Err() nil was a failure, not a
// timeout, and skipped the liveness check).
func TestCallPastItsDeadlineEndsWithItsContext(t *testing.T) {
	srv := startScripted(t, func(map[string]any) [][]byte { return nil })
	c := dial(t, wire.Options{URL: srv.URL})
	inner, fire := context.WithCancel(t.Context())
	t.Cleanup(fire)
	asked := make(chan struct{})
	ctx := &lateTimer{Context: inner, waited: sync.OnceFunc(func() { close(asked) })}
	go func() {
		select {
		case <-asked:
			fire() // the late timer fires once the call waits for it
		case <-inner.Done():
		}
	}()
	_, err := c.CallService(ctx, "/late", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
	if ctx.Err() == nil {
		t.Fatalf("the call reported %q before its context ended", err)
	}
}
