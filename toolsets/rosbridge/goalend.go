package rosbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// A goal given up by the kill never brings its result: rosbridge sends it
// to the dropped socket. What the robot still says about it is its action
// server's status topic (<action>/_action/status, action_msgs/GoalStatusArray),
// which any socket may read. rosbridge's goal ids are its own, not the
// goals' UUIDs, so the one proof a client can read is that no goal of that
// action is active any more: once a status message on a socket newer than
// the kill lists none without a terminal status, every goal given
// up on that action has ended, and the body layer is told
// (engine.BackendEnv.MotionEnded). Another client's goal on the same
// server keeps it waiting: that fails closed. A declared stopped reading
// (rosbridge.stopped_reading) reading true on a newer socket ends them too.

// typeGoalStatusArray is the type of an action's status topic.
const typeGoalStatusArray = "action_msgs/msg/GoalStatusArray"

// statusTopic is an action's status topic.
func statusTopic(action string) string { return action + "/_action/status" }

// givenUp is a goal the kill gave up on, waiting for its action's status
// topic to show it ended.
type givenUp struct {
	key    *engine.Motion
	goal   string
	action string
	gen    uint64 // the socket it ran on: only a newer one's status counts
}

// giveUp records g, given up by the kill of key's motion, and reads its
// action's status topic.
func (b *backend) giveUp(cl *wire.Client, key *engine.Motion, g *wire.Goal) {
	if key == nil || b.env.MotionEnded == nil {
		return
	}
	b.mu.Lock()
	b.givenUp = append(b.givenUp, givenUp{key: key, goal: g.ID(), action: g.Action(), gen: cl.Generation()})
	b.mu.Unlock()
	b.readStatus(cl, zeroTimeout)
}

// readStatus subscribes to the status topic of every given-up goal's
// action not yet read (a subscription is restored on every reconnect). One
// that fails (the socket going as the kill drops it) is tried again on the
// next socket (reconnected).
func (b *backend) readStatus(cl *wire.Client, timeout time.Duration) {
	b.mu.Lock()
	var actions []string
	for _, g := range b.givenUp {
		if topic := statusTopic(g.action); !b.statusRead[topic] {
			b.statusRead[topic] = true
			actions = append(actions, g.action)
		}
	}
	b.mu.Unlock()
	for _, action := range actions {
		topic := statusTopic(action)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := cl.Subscribe(ctx, wire.Subscription{Topic: topic, Type: typeGoalStatusArray,
			OnMessage: func(m wire.Message) { b.goalStatus(action, m) }})
		cancel()
		if err != nil {
			b.mu.Lock()
			delete(b.statusRead, topic)
			b.mu.Unlock()
			b.env.Logger.Warn("reading an action's status topic failed; tried again on the next socket", "topic", topic, "err", err)
		}
	}
}

// activeGoals counts the goals a status message lists without a terminal
// status (succeeded, canceled, aborted); ok is false when it is not a GoalStatusArray (an
// unknown is not "none active").
func activeGoals(data json.RawMessage) (n int, ok bool) {
	var msg struct {
		StatusList *[]struct {
			Status *int `json:"status"`
		} `json:"status_list"`
	}
	if err := json.Unmarshal(data, &msg); err != nil || msg.StatusList == nil {
		return 0, false
	}
	for _, s := range *msg.StatusList {
		if s.Status == nil {
			return 0, false
		}
		// Only a terminal status is an end; unknown (0) is not.
		if st := wire.GoalStatus(*s.Status); st != wire.StatusSucceeded && st != wire.StatusCanceled && st != wire.StatusAborted {
			n++
		}
	}
	return n, true
}

// goalStatus reads one status message of action: with no goal active, every
// goal given up on action on an older socket has ended. It runs on the
// client's reading goroutine and never blocks.
func (b *backend) goalStatus(action string, m wire.Message) {
	if n, ok := activeGoals(m.Data); !ok || n > 0 {
		return
	}
	b.ended(m, func(g givenUp) bool { return g.action == action }, func(g givenUp) string {
		return fmt.Sprintf("the status topic %s lists no goal running, so goal %s, given up %s after it started, has ended",
			statusTopic(action), g.goal, roundMillis(time.Since(g.key.Start)))
	})
}

// stoppedMessage reads one message of the stopped reading's topic: true
// says the robot is still, so every goal given up on an older socket has
// ended. Anything but true (false, null, a value of another type, an
// expr that fails) ends nothing. It runs on the client's reading goroutine.
func (b *backend) stoppedMessage(m wire.Message) {
	b.mu.Lock()
	waiting := len(b.givenUp) > 0
	b.mu.Unlock()
	if !waiting {
		return
	}
	name := b.plan.cfg.StoppedReading
	var msg any
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		return
	}
	if v, err := run(b.plan.readings[name], "msg", msg); err != nil || v != true {
		return
	}
	b.ended(m, func(givenUp) bool { return true }, func(g givenUp) string {
		return fmt.Sprintf("the stopped reading %s (%s) reads true, so goal %s on %s, given up %s after it started, has ended",
			name, m.Topic, g.goal, g.action, roundMillis(time.Since(g.key.Start)))
	})
}

// ended reports to the body layer every given-up goal that match selects
// and that ran on a socket older than m's, saying how in its words.
func (b *backend) ended(m wire.Message, match func(givenUp) bool, words func(givenUp) string) {
	b.mu.Lock()
	var ended []givenUp
	kept := b.givenUp[:0]
	for _, g := range b.givenUp {
		if match(g) && m.Generation > g.gen {
			ended = append(ended, g)
		} else {
			kept = append(kept, g)
		}
	}
	b.givenUp = kept
	b.mu.Unlock()
	for _, g := range ended {
		how := words(g)
		b.env.Emit(engine.SafetyEvent{Kind: SafetyGoalEnded, Tool: g.key.Tool, Text: how})
		b.env.MotionEnded(g.key, how)
	}
}

func roundMillis(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// isStoppedTopic tells whether topic is the stopped reading's.
func (b *backend) isStoppedTopic(topic string) bool {
	name, r := b.plan.cfg.StoppedReading, b.plan.cfg.Readings
	return name != "" && r != nil && r.Sources[name].Topic == topic
}

// both calls f (when set), then g, with every message.
func both(f, g func(wire.Message)) func(wire.Message) {
	if f == nil {
		return g
	}
	return func(m wire.Message) { f(m); g(m) }
}
