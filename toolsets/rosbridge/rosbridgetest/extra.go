package rosbridgetest

import (
	"encoding/json"
	"fmt"
	"os"
)

// Extra is a topic the fake publishes beside its robot's own: Msg every
// Every ticks, or, with Every 0, latched (as /tf_static is): sent once to
// each subscription when it starts, as a transient-local publisher does.
// rosapi lists it with its type.
type Extra struct {
	Topic string          `json:"topic"`
	Type  string          `json:"type"`
	Msg   json.RawMessage `json:"msg"`
	Every int             `json:"every,omitempty"`
}

// ReadExtra reads a JSON list of Extra from a file (the -extra flag).
func ReadExtra(path string) ([]Extra, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rosbridgetest extra: %w", err)
	}
	var out []Extra
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("rosbridgetest extra %s: %w", path, err)
	}
	for i, e := range out {
		if e.Topic == "" || e.Type == "" || len(e.Msg) == 0 || e.Msg[0] != '{' || e.Every < 0 {
			return nil, fmt.Errorf("rosbridgetest extra %s: item %d needs a topic, a type, an object msg and every >= 0", path, i)
		}
		out[i].Topic = slashed(e.Topic)
	}
	return out, nil
}

// extraTopics are the extra topics by name, with their types.
func extraTopics(extra []Extra) map[string]string {
	out := map[string]string{}
	for _, e := range extra {
		out[e.Topic] = canonical(e.Type)
	}
	return out
}

// publishExtra sends the extra topics due at this tick, and each latched
// one to the subscriptions that have not had it. Called with Server.mu
// held.
func (s *Server) publishExtra(tick uint64) {
	for i, e := range s.opts.Extra {
		if e.Every > 0 {
			if tick%uint64(e.Every) == 0 && s.subscribed(e.Topic) {
				s.deliver(e.Topic, e.Msg)
			}
			continue
		}
		if s.held[e.Topic] {
			continue
		}
		for c := range s.sessions {
			sub := c.subs[e.Topic]
			key := latchKey{sub, i}
			if sub == nil || s.latchSent[key] {
				continue
			}
			if s.latchSent == nil {
				s.latchSent = map[latchKey]bool{}
			}
			s.latchSent[key] = true
			name, _ := json.Marshal(sub.sent)
			frame := fmt.Appendf(nil, `{"op":"publish","topic":%s,"msg":%s}`, name, e.Msg)
			c.enqueueRaw(frame, "", sub.fragment, false)
		}
	}
}

// latchKey is one latched extra message sent to one subscription.
type latchKey struct {
	sub   *sessionSub
	extra int
}
