package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Subscription asks rosbridge for a topic's messages.
type Subscription struct {
	Topic string // sent as is; messages are matched by this exact name
	Type  string // e.g. "sensor_msgs/msg/LaserScan"; rosbridge refuses a mismatch
	// ThrottleRate is the least time between two messages rosbridge sends
	// (sent in whole milliseconds).
	ThrottleRate time.Duration
	// QueueLength is how many messages rosbridge buffers while throttling.
	QueueLength int
	// Compression: "" or "none". "png" and "cbor" are refused: this client
	// reads JSON text frames only.
	Compression string
	// FragmentSize asks rosbridge to fragment messages above this many
	// bytes (0: never).
	FragmentSize int
	// OnMessage, when set, is given every message of the topic in order
	// (a TF buffer folds each one in; the latest-message cache keeps only
	// the last). It runs on the reading goroutine: it must return quickly.
	OnMessage func(Message)
}

// Message is the latest message received on a topic.
type Message struct {
	Topic      string
	Data       json.RawMessage // the ROS message as JSON
	Received   time.Time       // when it arrived here: compare with a max age
	Seq        uint64          // counts the topic's messages from 1
	Generation uint64          // of the connection it came on
}

// Age is how old the message is at now.
func (m Message) Age(now time.Time) time.Duration { return now.Sub(m.Received) }

type subscription struct {
	frame  subscribeFrame
	each   func(Message)
	latest Message
	notify chan struct{} // closed and replaced at every message
}

type subscribeFrame struct {
	Op           string `json:"op"`
	ID           string `json:"id"`
	Topic        string `json:"topic"`
	Type         string `json:"type,omitempty"`
	ThrottleRate int64  `json:"throttle_rate,omitempty"`
	QueueLength  int    `json:"queue_length,omitempty"`
	FragmentSize int    `json:"fragment_size,omitempty"`
	Compression  string `json:"compression"`
}

// Subscribe starts receiving a topic into the latest-message cache. The
// subscription is restored after every reconnect. A topic is subscribed
// once per Client.
func (c *Client) Subscribe(ctx context.Context, s Subscription) error {
	if s.Topic == "" {
		return fmt.Errorf("rosbridge subscribe: no topic")
	}
	switch s.Compression {
	case "", "none":
	case "png", "cbor", "cbor-raw":
		return fmt.Errorf("rosbridge subscribe %s: compression %q is not supported: this client reads JSON text frames only; use \"none\"", s.Topic, s.Compression)
	default:
		return fmt.Errorf("rosbridge subscribe %s: unknown compression %q (rosbridge knows none, png, cbor, cbor-raw; use \"none\")", s.Topic, s.Compression)
	}
	if s.ThrottleRate < 0 || s.QueueLength < 0 || s.FragmentSize < 0 {
		return fmt.Errorf("rosbridge subscribe %s: throttle_rate, queue_length and fragment_size must not be negative", s.Topic)
	}
	if s.ThrottleRate > 0 && s.ThrottleRate < time.Millisecond {
		return fmt.Errorf("rosbridge subscribe %s: throttle_rate %v is below rosbridge's 1 ms resolution", s.Topic, s.ThrottleRate)
	}
	f := subscribeFrame{
		Op: "subscribe", ID: c.newID("subscribe", s.Topic), Topic: s.Topic, Type: s.Type,
		ThrottleRate: s.ThrottleRate.Milliseconds(), QueueLength: s.QueueLength,
		FragmentSize: s.FragmentSize, Compression: "none",
	}
	c.mu.Lock()
	if _, dup := c.subs[s.Topic]; dup {
		c.mu.Unlock()
		return fmt.Errorf("rosbridge subscribe %s: already subscribed", s.Topic)
	}
	c.subs[s.Topic] = &subscription{frame: f, each: s.OnMessage, latest: Message{Topic: s.Topic}, notify: make(chan struct{})}
	c.subscribed[s.Topic] = true
	c.mu.Unlock()
	if err := c.send(ctx, f); err != nil {
		c.mu.Lock()
		delete(c.subs, s.Topic)
		c.mu.Unlock()
		return fmt.Errorf("rosbridge subscribe %s: %w", s.Topic, err)
	}
	return nil
}

// Unsubscribe stops a topic and forgets its cached message.
func (c *Client) Unsubscribe(ctx context.Context, topic string) error {
	c.mu.Lock()
	s := c.subs[topic]
	delete(c.subs, topic)
	c.mu.Unlock()
	if s == nil {
		return fmt.Errorf("rosbridge unsubscribe %s: not subscribed", topic)
	}
	close(s.notify)
	err := c.send(ctx, map[string]string{"op": "unsubscribe", "id": s.frame.ID, "topic": topic})
	if err != nil {
		return fmt.Errorf("rosbridge unsubscribe %s: %w", topic, err)
	}
	return nil
}

// Latest returns the newest message of a subscribed topic, if one came.
func (c *Client) Latest(topic string) (Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.subs[topic]
	if s == nil || s.latest.Seq == 0 {
		return Message{}, false
	}
	return s.latest, true
}

// WaitMessage returns the first message of topic received after the given
// time (at once if the cached one is newer): a fresh reading after a
// motion or a reconnect.
func (c *Client) WaitMessage(ctx context.Context, topic string, after time.Time) (Message, error) {
	for {
		c.mu.Lock()
		s := c.subs[topic]
		if s == nil {
			c.mu.Unlock()
			return Message{}, fmt.Errorf("rosbridge %s: not subscribed", topic)
		}
		m, wait := s.latest, s.notify
		c.mu.Unlock()
		if m.Seq > 0 && m.Received.After(after) {
			return m, nil
		}
		select {
		case <-ctx.Done():
			return Message{}, fmt.Errorf("rosbridge %s: no message after %s: %w", topic, after.Format(time.RFC3339Nano), ctx.Err())
		case <-wait:
		}
	}
}

// onPublish caches a topic's message.
func (c *Client) onPublish(m inbound, size int, gen uint64) {
	now := time.Now()
	c.mu.Lock()
	s := c.subs[m.Topic]
	if s == nil {
		known := c.subscribed[m.Topic]
		c.mu.Unlock()
		if known {
			c.stats.late.Add(1) // in flight when we unsubscribed
			return
		}
		c.garbage(Garbage{Reason: GarbageUnmatched, Op: "publish", Size: size, Detail: fmt.Sprintf("topic %q was never subscribed", m.Topic)})
		return
	}
	if len(m.Msg) == 0 || m.Msg[0] != '{' {
		c.mu.Unlock()
		c.garbage(Garbage{Reason: GarbageBadReply, Op: "publish", Size: size, Detail: fmt.Sprintf("topic %q: msg is not an object", m.Topic)})
		return
	}
	s.latest = Message{Topic: m.Topic, Data: m.Msg, Received: now, Seq: s.latest.Seq + 1, Generation: gen}
	close(s.notify)
	s.notify = make(chan struct{})
	latest, each := s.latest, s.each
	c.mu.Unlock()
	if each != nil {
		each(latest)
	}
}

type advertise struct {
	Op    string `json:"op"`
	ID    string `json:"id"`
	Topic string `json:"topic"`
	Type  string `json:"type"`
}

func advertiseFrame(id, topic, typ string) advertise {
	return advertise{Op: "advertise", ID: id, Topic: topic, Type: typ}
}

// Advertise declares that this client publishes topic with type typ. It
// is restored after every reconnect.
func (c *Client) Advertise(ctx context.Context, topic, typ string) error {
	if topic == "" || typ == "" {
		return fmt.Errorf("rosbridge advertise: topic and type are both needed")
	}
	c.mu.Lock()
	if old, ok := c.adverts[topic]; ok && old != typ {
		c.mu.Unlock()
		return fmt.Errorf("rosbridge advertise %s: already advertised as %s", topic, old)
	}
	c.adverts[topic] = typ
	c.mu.Unlock()
	if err := c.send(ctx, advertiseFrame(c.newID("advertise", topic), topic, typ)); err != nil {
		return fmt.Errorf("rosbridge advertise %s: %w", topic, err)
	}
	return nil
}

// Unadvertise withdraws an advertisement.
func (c *Client) Unadvertise(ctx context.Context, topic string) error {
	c.mu.Lock()
	_, ok := c.adverts[topic]
	delete(c.adverts, topic)
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("rosbridge unadvertise %s: not advertised", topic)
	}
	if err := c.send(ctx, map[string]string{"op": "unadvertise", "id": c.newID("unadvertise", topic), "topic": topic}); err != nil {
		return fmt.Errorf("rosbridge unadvertise %s: %w", topic, err)
	}
	return nil
}

// Publish sends one message on an advertised topic. rosbridge gives no
// acknowledgement: a message that does not fit the type is dropped there
// (and logged there), so check types with rosapi before relying on it.
func (c *Client) Publish(ctx context.Context, topic string, msg any) error {
	c.mu.Lock()
	_, ok := c.adverts[topic]
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("rosbridge publish %s: advertise it first", topic)
	}
	frame := struct {
		Op    string `json:"op"`
		ID    string `json:"id"`
		Topic string `json:"topic"`
		Msg   any    `json:"msg"`
	}{"publish", c.newID("publish", topic), topic, msg}
	if err := c.send(ctx, frame); err != nil {
		return fmt.Errorf("rosbridge publish %s: %w", topic, err)
	}
	return nil
}
