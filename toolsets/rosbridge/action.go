package rosbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// EventProgress is a goal's feedback, on the task's stream.
const EventProgress runlog.EventKind = "progress"

// progressEvery bounds how often feedback becomes a progress event.
const progressEvery = time.Second

// callAction sends a goal and waits for its result; feedback becomes
// progress events. An error means no result: ctx ended (the body layer
// cancels the goal), or the socket dropped (the goal may still run).
func (c *conn) callAction(ctx context.Context, tp *toolPlan, args map[string]any, key *engine.Motion) (runlog.Envelope, error) {
	a := tp.decl.Action
	goal, err := run(tp.build, "args", args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: building the goal failed: %v", tp.name, err)), nil
	}
	m := &motion{tool: tp.name, sent: make(chan struct{})}
	defer c.track(key, m)()
	g, err := c.cl.SendGoal(ctx, wire.GoalRequest{Action: a.Name, ActionType: a.Type, Args: goal, Feedback: a.Feedback})
	if err != nil {
		close(m.sent)
		return runlog.Envelope{}, transportErr(err)
	}
	c.mu.Lock()
	m.goal = g
	c.mu.Unlock()
	close(m.sent)
	var lastEmit time.Time
	fb := g.Feedback()
	for {
		select {
		case f, ok := <-fb:
			if !ok {
				fb = nil
				continue
			}
			if time.Since(lastEmit) >= progressEvery {
				lastEmit = time.Now()
				c.progress(tp.name, g, f.Values)
			}
		case <-g.Done():
			r, err := g.Wait(ctx)
			if err != nil {
				if errors.Is(err, wire.ErrConnectionLost) {
					return runlog.Envelope{}, engine.BackendCrashed(fmt.Errorf("the socket to rosbridge dropped while goal %s on %s ran: it may still be moving the robot, and is cancelled as soon as the socket is back: %w", g.ID(), a.Name, err))
				}
				return runlog.Envelope{}, transportErr(err)
			}
			return actionResult(tp, r), nil
		case <-ctx.Done():
			return runlog.Envelope{}, ctx.Err()
		}
	}
}

// actionResult maps a goal's status to the envelope: succeeded is a
// success unless the tool's success expr says otherwise (judge.go);
// canceled, aborted (a preempted goal among them) and a goal rosbridge
// could not run are failures with their reason, the reason expr's when
// declared.
func actionResult(tp *toolPlan, r wire.Result) runlog.Envelope {
	action := tp.decl.Action.Name
	if !r.OK {
		return runlog.Failure(fmt.Sprintf("%s: rosbridge could not run the goal on %s: %s", tp.name, action, r.Reason()))
	}
	var values any
	_ = json.Unmarshal(r.Values, &values) // a result that is not JSON stays nil; its text is in the reason
	status := r.Status.String()
	vars := map[string]any{"result": values, "status": status}
	if r.Status == wire.StatusSucceeded {
		env := runlog.Envelope{Success: true, Value: map[string]any{"status": "succeeded", "result": values}}
		return tp.judge(env, vars, "result", "the goal on "+action+" succeeded, but its result says failure")
	}
	why := resultReason(values)
	if why == "" {
		why = "no reason given"
	}
	why = tp.reasonOf(vars, why)
	env := runlog.Failure(fmt.Sprintf("%s: the goal on %s was %s: %s", tp.name, action, status, why))
	env.Value = map[string]any{"status": status, "result": values}
	return env
}

// resultReason finds the words of a result: error_msg (Nav2), message,
// error_string (MoveIt).
func resultReason(values any) string {
	m, ok := values.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"error_msg", "message", "error_string"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	if code, ok := m["error_code"]; ok {
		return "error_code " + renderValue(code)
	}
	return ""
}

// progress sends one feedback message to the task's stream.
func (c *conn) progress(tool string, g *wire.Goal, values json.RawMessage) {
	h := c.b.tc.Stream
	if h == nil {
		return
	}
	text := string(values)
	if len(text) > 512 {
		text = text[:512] + "…"
	}
	h.Emit(runlog.Event{Kind: EventProgress, Tool: tool, Text: fmt.Sprintf("feedback of goal %s on %s: %s", g.ID(), g.Action(), text)})
}
