package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// GoalStatus is action_msgs/msg/GoalStatus, as action_result carries it.
type GoalStatus int

// The statuses of a ROS 2 goal.
const (
	StatusUnknown   GoalStatus = 0
	StatusAccepted  GoalStatus = 1
	StatusExecuting GoalStatus = 2
	StatusCanceling GoalStatus = 3
	StatusSucceeded GoalStatus = 4
	StatusCanceled  GoalStatus = 5
	StatusAborted   GoalStatus = 6
)

func (s GoalStatus) String() string {
	switch s {
	case StatusUnknown:
		return "unknown"
	case StatusAccepted:
		return "accepted"
	case StatusExecuting:
		return "executing"
	case StatusCanceling:
		return "canceling"
	case StatusSucceeded:
		return "succeeded"
	case StatusCanceled:
		return "canceled"
	case StatusAborted:
		return "aborted"
	}
	return fmt.Sprintf("status %d", int(s))
}

// GoalRequest is a goal for a ROS 2 action server.
type GoalRequest struct {
	Action     string // e.g. "/navigate_to_pose"; results are matched by this exact name
	ActionType string // e.g. "nav2_msgs/action/NavigateToPose"
	Args       any    // the goal message, encoded as a JSON object
	Feedback   bool   // ask rosbridge for action_feedback
}

// Feedback is one action_feedback message.
type Feedback struct {
	Values   json.RawMessage
	Received time.Time
}

// Result is a goal's action_result.
type Result struct {
	Status GoalStatus
	// OK is rosbridge's "result" field: false when rosbridge could not
	// run the goal at all (no server, rejected, bad fields); Values then
	// holds its reason as a JSON string and Status is unknown.
	OK       bool
	Values   json.RawMessage
	Received time.Time
}

// Reason is rosbridge's text for a goal it could not run, or the JSON
// of the result message.
func (r Result) Reason() string {
	var s string
	if json.Unmarshal(r.Values, &s) == nil {
		return s
	}
	return string(r.Values)
}

// Err is nil for a succeeded goal, else why it did not succeed.
func (r Result) Err() error {
	switch {
	case !r.OK:
		return fmt.Errorf("goal not run: %s", r.Reason())
	case r.Status == StatusSucceeded:
		return nil
	default:
		return fmt.Errorf("goal %s: %s", r.Status, r.Reason())
	}
}

// Goal is one goal sent to an action server.
type Goal struct {
	c          *Client
	id         string
	action     string
	generation uint64
	sent       time.Time
	feedback   chan Feedback
	done       chan struct{}

	mu       sync.Mutex
	finished bool
	result   Result
	err      error
}

// ID is the goal's rosbridge id (for cancel_action_goal).
func (g *Goal) ID() string { return g.id }

// Action is the action name the goal was sent to.
func (g *Goal) Action() string { return g.action }

// Generation is the connection the goal was sent on.
func (g *Goal) Generation() uint64 { return g.generation }

// Sent is when the goal was written.
func (g *Goal) Sent() time.Time { return g.sent }

// Feedback delivers action feedback; it is closed when the goal ends here
// (result, drop or Close). A reader that falls behind loses the oldest.
func (g *Goal) Feedback() <-chan Feedback { return g.feedback }

// Done is closed when Wait would return at once.
func (g *Goal) Done() <-chan struct{} { return g.done }

// Wait returns the goal's result. Its error is not nil when no result can
// come: ctx ended (the goal is still running; cancel it or wait again),
// the socket dropped (ErrConnectionLost: the goal may still be running)
// or the Client closed.
func (g *Goal) Wait(ctx context.Context) (Result, error) {
	select {
	case <-g.done:
	case <-ctx.Done():
		return Result{}, fmt.Errorf("goal %s on %s: %w", g.id, g.action, ctx.Err())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.result, g.err
}

// Cancel asks rosbridge to cancel the goal (cancel_action_goal with its
// id), on whatever socket is up now: rosbridge keeps goals beyond the
// connection that sent them. It does not wait for the result; a goal with
// a result already needs no cancel. After a reconnect, rosbridge sends the
// cancelled goal's result to the dropped socket, so only a fresh reading
// of the robot tells that it stopped.
func (g *Goal) Cancel(ctx context.Context) error {
	g.c.mu.Lock()
	_, live := g.c.goals[g.id]
	_, orphan := g.c.orphans[g.id]
	g.c.mu.Unlock()
	if !live && !orphan {
		return nil
	}
	err := g.c.send(ctx, map[string]string{"op": "cancel_action_goal", "id": g.id, "action": g.action})
	if err != nil {
		return fmt.Errorf("rosbridge cancel %s goal %s: %w", g.action, g.id, err)
	}
	if orphan {
		g.c.mu.Lock()
		delete(g.c.orphans, g.id)
		g.c.mu.Unlock()
	}
	return nil
}

// finish records the goal's end; the first call wins.
func (g *Goal) finish(r Result, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.finished {
		return
	}
	g.finished, g.result, g.err = true, r, err
	close(g.feedback)
	close(g.done)
}

// pushFeedback hands feedback to the reader, dropping the oldest when full.
func (g *Goal) pushFeedback(f Feedback) (dropped bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.finished {
		return false
	}
	for {
		select {
		case g.feedback <- f:
			return dropped
		default:
		}
		select {
		case <-g.feedback:
			dropped = true
		default:
		}
	}
}

type goalFrame struct {
	Op         string `json:"op"`
	ID         string `json:"id"`
	Action     string `json:"action"`
	ActionType string `json:"action_type"`
	Args       any    `json:"args"`
	Feedback   bool   `json:"feedback"`
}

// SendGoal sends a goal. rosbridge does not acknowledge a goal: it
// answers with feedback and one action_result, or with a failed result
// (OK false) when it could not run it.
func (c *Client) SendGoal(ctx context.Context, req GoalRequest) (*Goal, error) {
	if req.Action == "" || req.ActionType == "" {
		return nil, errors.New("rosbridge send_action_goal: action and action type are both needed")
	}
	args := req.Args
	if args == nil {
		args = struct{}{}
	}
	f := goalFrame{Op: "send_action_goal", ID: c.newID("send_action_goal", req.Action),
		Action: req.Action, ActionType: req.ActionType, Args: args, Feedback: req.Feedback}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rosbridge goal %s: %w", req.Action, err)
	}
	_, gen, err := c.current()
	if err != nil {
		return nil, fmt.Errorf("rosbridge goal %s: %w", req.Action, err)
	}
	g := &Goal{c: c, id: f.ID, action: req.Action, generation: gen, sent: time.Now(),
		feedback: make(chan Feedback, c.opts.FeedbackBuffer), done: make(chan struct{})}
	c.mu.Lock()
	c.goals[g.id] = g
	c.mu.Unlock()
	if err := c.write(gen, f); err != nil {
		c.mu.Lock()
		delete(c.goals, g.id)
		c.mu.Unlock()
		return nil, fmt.Errorf("rosbridge goal %s: %w", req.Action, err)
	}
	return g, nil
}

// Orphans are the goals sent on a socket that dropped, with no result and
// no cancel sent since, oldest first.
func (c *Client) Orphans() []*Goal {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Goal, 0, len(c.orphans))
	for _, g := range c.orphans {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].sent.Before(out[j].sent) })
	return out
}

// goalFor finds the goal a feedback or result names, checking the action
// name; late reports whether it is one we stopped waiting for.
func (c *Client) goalFor(m inbound, size int, remove bool) (g *Goal, ok bool) {
	id := idString(m.ID)
	c.mu.Lock()
	g = c.goals[id]
	orphan := c.orphans[id]
	if g != nil && remove && g.action == m.Action {
		delete(c.goals, id)
	}
	if g == nil && orphan != nil && orphan.action == m.Action {
		if remove {
			delete(c.orphans, id) // it finished after all
		}
		c.mu.Unlock()
		c.stats.late.Add(1)
		return nil, false
	}
	c.mu.Unlock()
	switch {
	case g == nil:
		c.garbage(Garbage{Reason: GarbageUnmatched, Op: m.Op, Size: size, Detail: fmt.Sprintf("no goal has id %q (action %q)", id, m.Action)})
		return nil, false
	case g.action != m.Action:
		c.garbage(Garbage{Reason: GarbageUnmatched, Op: m.Op, Size: size,
			Detail: fmt.Sprintf("id %q names action %q, but the goal went to %q", id, m.Action, g.action)})
		return nil, false
	}
	return g, true
}

func (c *Client) onActionFeedback(m inbound, size int) {
	g, ok := c.goalFor(m, size, false)
	if !ok {
		return
	}
	if g.pushFeedback(Feedback{Values: m.Values, Received: time.Now()}) {
		c.stats.feedbackDropped.Add(1)
	}
}

func (c *Client) onActionResult(m inbound, size int) {
	g, ok := c.goalFor(m, size, true)
	if !ok {
		return
	}
	r := Result{OK: m.Result != nil && *m.Result, Values: m.Values, Received: time.Now()}
	var status int
	if err := json.Unmarshal(m.Status, &status); err != nil {
		c.garbage(Garbage{Reason: GarbageBadReply, Op: m.Op, Size: size, Detail: fmt.Sprintf("goal %q: status %s is not a number", g.id, m.Status)})
		r.OK = false
		r.Values, _ = json.Marshal("malformed action_result: status " + string(m.Status))
	}
	r.Status = GoalStatus(status)
	g.finish(r, nil)
}
