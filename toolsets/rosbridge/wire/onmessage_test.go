package wire_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// OnMessage is given every message of its topic in order, though the
// latest-message cache keeps only the last: two latched messages sent in
// one burst (two /tf_static publishers) both reach it.
func TestOnMessageSeesEveryMessage(t *testing.T) {
	extra := []rosbridgetest.Extra{
		{Topic: "/tf_static", Type: "tf2_msgs/msg/TFMessage", Msg: json.RawMessage(`{"n": 1}`)},
		{Topic: "/tf_static", Type: "tf2_msgs/msg/TFMessage", Msg: json.RawMessage(`{"n": 2}`)},
	}
	srv := startFake(t, rosbridgetest.Options{Extra: extra})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	var mu sync.Mutex
	var got []string
	all := make(chan struct{})
	each := func(m wire.Message) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, string(m.Data))
		if len(got) == 2 {
			close(all)
		}
	}
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "/tf_static", Type: "tf2_msgs/msg/TFMessage", QueueLength: 10, OnMessage: each}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-all:
	case <-ctx.Done():
		t.Fatalf("OnMessage saw %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if got[0] != `{"n": 1}` || got[1] != `{"n": 2}` {
		t.Fatalf("in order: %v", got)
	}
	if m, ok := c.Latest("/tf_static"); !ok || string(m.Data) != `{"n": 2}` || m.Seq != 2 {
		t.Fatalf("the cache keeps the last: %+v", m)
	}
}
