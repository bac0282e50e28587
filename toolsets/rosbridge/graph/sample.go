package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// SampleRequest asks SampleTopics for a topic's first Count messages (at
// least one), and keeps up to Keep of them (at least Count) without
// waiting for more than Count: the latched burst of /tf_static.
type SampleRequest struct {
	Topic, Type string
	Count, Keep int
}

// Bounds of SampleTopics.
const (
	// MaxSampleTopics is the most topics sampled at once.
	MaxSampleTopics = 32
	// MaxSampleCount is the most messages kept of one topic.
	MaxSampleCount = 50
	// maxSampleBytes bounds one kept message: a sample reads names, frames
	// and a few values, never an image.
	maxSampleBytes = 256 << 10
	// sampleQueueLength is rosbridge's queue for a sampled topic:
	// /tf_static's latched messages (one per static publisher) arrive in
	// one burst when the subscription starts, and each is needed.
	sampleQueueLength = 100
)

// SampleTopics reads a few messages of each requested topic, for a spec
// drafted from the graph: which frames TF connects, what a JointState
// names, what a Bool reads now. It returns when every topic has sent its
// Count messages, or when window ends (messages past Count that come
// meanwhile are kept up to Keep); a topic that stayed silent is
// absent from the result, and a message over 256 KiB is skipped. The
// messages come from outside Thea: callers check every name they use.
func SampleTopics(ctx context.Context, url string, header http.Header, reqs []SampleRequest, window time.Duration) (map[string][]json.RawMessage, error) {
	if len(reqs) > MaxSampleTopics {
		reqs = reqs[:MaxSampleTopics]
	}
	out := map[string][]json.RawMessage{}
	if len(reqs) == 0 {
		return out, nil
	}
	cl, err := wire.Dial(ctx, wire.Options{URL: url, Header: header, MaxFrameBytes: 4 << 20})
	if err != nil {
		return nil, fmt.Errorf("rosbridge could not be reached: %w", err)
	}
	defer cl.Close()
	var mu sync.Mutex
	want, keep := map[string]int{}, map[string]int{}
	var order []SampleRequest
	for _, r := range reqs {
		if _, dup := want[r.Topic]; !dup {
			want[r.Topic] = min(max(r.Count, 1), MaxSampleCount)
			keep[r.Topic] = min(max(r.Keep, want[r.Topic]), MaxSampleCount)
			order = append(order, r)
		}
	}
	done := make(chan struct{})
	pending := len(order)
	for _, r := range order {
		topic := r.Topic
		each := func(m wire.Message) {
			mu.Lock()
			defer mu.Unlock()
			if len(out[topic]) >= keep[topic] || len(m.Data) > maxSampleBytes {
				return
			}
			out[topic] = append(out[topic], m.Data)
			if len(out[topic]) == want[topic] {
				if pending--; pending == 0 {
					close(done)
				}
			}
		}
		// A long queue: /tf_static's latched burst must all arrive.
		sub := wire.Subscription{Topic: topic, Type: r.Type, QueueLength: sampleQueueLength, OnMessage: each}
		if err := cl.Subscribe(ctx, sub); err != nil {
			return nil, fmt.Errorf("sampling %s: %w", topic, err)
		}
	}
	timer := time.NewTimer(window)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	case <-ctx.Done():
		return nil, fmt.Errorf("sampling topics: %w", ctx.Err())
	}
	mu.Lock()
	defer mu.Unlock()
	return maps.Clone(out), nil
}
