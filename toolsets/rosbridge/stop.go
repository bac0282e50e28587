package rosbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// SafetyDeclaredStop is the declared stop's outcome: called, succeeded or
// failed, and how long it took (its Stop record, via "declared").
const SafetyDeclaredStop = "rosbridge_stop"

// stopPlan is the declared stop, compiled. A spec that declares cmd_vel and
// no stop gets a legacy one: a zero Twist on cmd_vel, published once and
// only when a motion is killed, as before the stop path existed.
type stopPlan struct {
	decl    StopDecl
	legacy  bool
	timeout time.Duration
	// build makes the request, goal or message; success and reason read a
	// service's response.
	build           *vm.Program
	success, reason *vm.Program
}

// compileStop compiles the declared stop (nil when there is none); every
// problem is a FieldError under "stop".
func compileStop(cfg Config) (*stopPlan, error) {
	d := cfg.Stop
	if d == nil {
		if cfg.CmdVel == "" {
			return nil, nil
		}
		d = &StopDecl{Timeout: zeroTimeout.String(), Publish: &StopPublishDecl{Topic: cfg.CmdVel, Type: typeTwist, Count: 1, RateHz: 20}}
		sp, err := compileStopDecl(*d)
		if sp != nil {
			sp.legacy, sp.timeout = true, zeroTimeout
		}
		return sp, err
	}
	return compileStopDecl(*d)
}

func compileStopDecl(d StopDecl) (*stopPlan, error) {
	n := 0
	for _, set := range []bool{d.Service != nil, d.Action != nil, d.Publish != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, FieldError{Path: "stop", Msg: "a stop is exactly one of service, action or publish"}
	}
	sp := &stopPlan{decl: d, timeout: duration(d.Timeout)}
	if sp.timeout <= 0 {
		return nil, FieldError{Path: "stop.timeout", Msg: fmt.Sprintf("%q is not a positive duration (schema.Load fills the schema's default)", d.Timeout)}
	}
	var errs []error
	add := func(prog *vm.Program, err error) *vm.Program {
		var fe FieldError
		if errors.As(err, &fe) && strings.Contains(fe.Msg, "which the tool does not declare") {
			err = FieldError{Path: fe.Path, Msg: "a stop has no arguments (it runs without a tool call): build its message from constants, not args"}
		}
		if err != nil {
			errs = append(errs, err)
		}
		return prog
	}
	none := map[string]ArgDecl{} // a stop has no arguments: args.<anything> is refused
	asMap := expr.AsKind(reflect.Map)
	switch {
	case d.Service != nil:
		sp.build = add(compileExpr(d.Service.Request, "args", none, "stop.service.request", asMap))
		if d.Service.Success != "" {
			sp.success = add(compileExpr(d.Service.Success, "response", nil, "stop.service.success", expr.AsBool()))
		}
		if d.Service.Reason != "" {
			sp.reason = add(compileExpr(d.Service.Reason, "response", nil, "stop.service.reason"))
		}
	case d.Action != nil:
		sp.build = add(compileExpr(d.Action.Goal, "args", none, "stop.action.goal", asMap))
	case d.Publish != nil:
		msg := d.Publish.Message
		if msg == "" {
			if d.Publish.Type != typeTwist {
				return nil, FieldError{Path: "stop.publish.message", Msg: "a stop publish of a type other than " + typeTwist + " needs its message (message: an expr, e.g. \"{data: true}\" for an e-stop Bool)"}
			}
			msg = "{linear: {x: 0.0, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}"
		}
		if d.Publish.Count < 1 {
			d.Publish.Count = 1
		}
		if d.Publish.RateHz <= 0 {
			d.Publish.RateHz = 20
		}
		sp.decl = d
		sp.build = add(compileExpr(msg, "args", none, "stop.publish.message", asMap))
	}
	return sp, errors.Join(errs...)
}

// describe names the stop in sentences: "service /dashboard_client/stop".
func (sp *stopPlan) describe() string {
	d := sp.decl
	switch {
	case d.Service != nil:
		return "service " + d.Service.Name
	case d.Action != nil:
		return "action " + d.Action.Name
	case sp.legacy:
		return "a zero velocity on " + d.Publish.Topic
	}
	return fmt.Sprintf("%d message(s) on %s", d.Publish.Count, d.Publish.Topic)
}

// advertisedTopic is the topic the stop publishes to, if it publishes.
func (sp *stopPlan) advertisedTopic() (topic, typ string, ok bool) {
	if sp == nil || sp.decl.Publish == nil {
		return "", "", false
	}
	return sp.decl.Publish.Topic, sp.decl.Publish.Type, true
}

// runStop runs the declared stop once on cl, bounded by its timeout (from
// now, whatever is left of ctx: a stop gets its whole time), and records
// its outcome as an event of the task. after is how long the motion had
// run; why is what gave it up.
func (b *backend) runStop(ctx context.Context, cl *wire.Client, tool, why string, after time.Duration) runlog.Envelope {
	sp := b.plan.stop
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sp.timeout)
	defer cancel()
	start := time.Now()
	env := sp.call(sctx, cl)
	took := time.Since(start)
	outcome := "it succeeded"
	if !env.Success {
		outcome = "it failed: " + env.Reason
	}
	b.env.Logger.Warn("declared stop called", "stop", sp.describe(), "tool", tool, "why", why, "success", env.Success, "reason", env.Reason, "took", took)
	b.env.Emit(engine.SafetyEvent{Kind: SafetyDeclaredStop, Tool: tool, Envelope: env, After: after,
		Text: fmt.Sprintf("the declared stop (%s) was called because %s: %s in %s", sp.describe(), why, outcome, took.Round(time.Millisecond)),
		Stop: &runlog.StopCall{Via: runlog.StopViaDeclared, Tool: sp.describe(), Why: why, OK: env.Success, DurationMS: runlog.Millis(took)}})
	return env
}

// call runs the stop and says how it went.
func (sp *stopPlan) call(ctx context.Context, cl *wire.Client) runlog.Envelope {
	built, err := run(sp.build, "args", map[string]any{})
	if err != nil {
		return runlog.Failure(fmt.Sprintf("building the stop's message failed: %v", err))
	}
	d := sp.decl
	switch {
	case d.Service != nil:
		return sp.callService(ctx, cl, built)
	case d.Action != nil:
		g, err := cl.SendGoal(ctx, wire.GoalRequest{Action: d.Action.Name, ActionType: d.Action.Type, Args: built})
		if err != nil {
			return runlog.Failure(fmt.Sprintf("sending the stop goal to %s failed: %v", d.Action.Name, err))
		}
		r, err := g.Wait(ctx)
		if err != nil {
			return runlog.Failure(fmt.Sprintf("the stop goal on %s brought no result: %v", d.Action.Name, err))
		}
		if err := r.Err(); err != nil {
			return runlog.Failure(fmt.Sprintf("the stop goal on %s: %v", d.Action.Name, err))
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"action": d.Action.Name, "status": r.Status.String()}}
	}
	p := d.Publish
	period := time.Duration(float64(time.Second) / p.RateHz)
	for i := 0; i < p.Count; i++ {
		if i > 0 {
			select {
			case <-time.After(period):
			case <-ctx.Done():
				return runlog.Failure(fmt.Sprintf("%d of %d stop message(s) published on %s before the stop's timeout", i, p.Count, p.Topic))
			}
		}
		if err := cl.Publish(ctx, p.Topic, built); err != nil {
			return runlog.Failure(fmt.Sprintf("publishing the stop message on %s failed after %d of %d: %v", p.Topic, i, p.Count, err))
		}
	}
	return runlog.Envelope{Success: true, Value: map[string]any{"topic": p.Topic, "published": p.Count}}
}

func (sp *stopPlan) callService(ctx context.Context, cl *wire.Client, req any) runlog.Envelope {
	s := sp.decl.Service
	raw, err := cl.CallService(ctx, s.Name, req)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("calling %s failed: %v", s.Name, err))
	}
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil || resp == nil {
		resp = map[string]any{}
	}
	env := runlog.Envelope{Success: true, Value: map[string]any{"service": s.Name, "response": resp}}
	ok, hasSuccess := resp["success"].(bool)
	if sp.success != nil {
		v, err := run(sp.success, "response", resp)
		if err != nil {
			return runlog.Failure(fmt.Sprintf("reading success from the response of %s failed: %v", s.Name, err))
		}
		ok, hasSuccess = v == true, true
	}
	if !hasSuccess || ok {
		return env
	}
	why, _ := resp["message"].(string)
	if sp.reason != nil {
		if r, err := run(sp.reason, "response", resp); err == nil && r != nil {
			why = fmt.Sprint(r)
		}
	}
	if why == "" {
		why = "the service answered failure"
	}
	env.Success, env.Reason = false, fmt.Sprintf("%s answered failure: %s", s.Name, why)
	return env
}

// stopAfterCancel follows a cancel that did not end the motion (no result
// within cancel_timeout, or the cancel failed): the declared stop runs, and
// its outcome is the stop path's. Without a declared stop (or with only
// cmd_vel's legacy one, which waits for the kill) the cancel's outcome
// stands.
func (c *conn) stopAfterCancel(ctx context.Context, key *engine.Motion, cancelEnv runlog.Envelope, cancelErr error) (runlog.Envelope, error) {
	sp := c.b.plan.stop
	m := c.handle(key)
	if sp == nil || sp.legacy || m == nil {
		return cancelEnv, cancelErr
	}
	cancelSaid := cancelEnv.Reason
	if cancelErr != nil {
		cancelSaid = fmt.Sprintf("the cancel failed: %v", cancelErr)
	}
	why := fmt.Sprintf("%s was given up and its cancel did not end it within cancel_timeout %s", m.tool, c.b.cancelTimeout())
	c.mu.Lock()
	m.declaredStop = true
	c.mu.Unlock()
	env := c.b.runStop(ctx, c.cl, m.tool, why, time.Since(key.Start))
	out := runlog.Envelope{Success: env.Success, Value: map[string]any{"cancel": cancelSaid, "stop": sp.describe(), "stop_result": env.Value}}
	if !env.Success {
		out.Reason = fmt.Sprintf("%s; then the declared stop (%s) failed: %s", cancelSaid, sp.describe(), env.Reason)
	}
	return out, nil
}

// stopOnGiveUp runs the stop path's last step for a motion given up by a
// kill and says what it did, for the given-up event: the declared stop, or
// cmd_vel's zero velocity.
func (b *backend) stopOnGiveUp(cl *wire.Client, tool string, after time.Duration) string {
	sp := b.plan.stop
	if sp == nil {
		return "no stop is declared (rosbridge.stop, or cmd_vel for a base), so nothing but the cancel was sent to halt the robot"
	}
	env := b.runStop(context.Background(), cl, tool, tool+" was given up", after)
	switch {
	case sp.legacy && env.Success:
		return "a zero velocity was published on " + sp.decl.Publish.Topic
	case sp.legacy:
		return fmt.Sprintf("publishing a zero velocity on %s failed: %s", sp.decl.Publish.Topic, env.Reason)
	case env.Success:
		return "the declared stop (" + sp.describe() + ") succeeded"
	}
	return fmt.Sprintf("the declared stop (%s) failed: %s", sp.describe(), env.Reason)
}
