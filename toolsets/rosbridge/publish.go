package rosbridge

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// callPublish is a bounded command: the message at rate_hz for the
// duration computed from args, then one explicit zero message, also when
// the harness stops it early or the caller gave up.
func (c *conn) callPublish(ctx context.Context, tp *toolPlan, args map[string]any, key *engine.Motion) (runlog.Envelope, error) {
	pd := tp.decl.Publish
	msg, err := run(tp.build, "args", args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: building the message failed: %v", tp.name, err)), nil
	}
	zero, err := run(tp.zero, "args", args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: building the zero message failed: %v", tp.name, err)), nil
	}
	secsV, err := run(tp.duration, "args", args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("%s: computing the duration failed: %v", tp.name, err)), nil
	}
	secs, _ := secsV.(float64)
	limit := duration(pd.MaxDuration)
	switch {
	case math.IsNaN(secs) || secs <= 0:
		return runlog.Failure(fmt.Sprintf("%s: the duration %v s is not positive; nothing was published", tp.name, secs)), nil
	case secs > limit.Seconds():
		return runlog.Failure(fmt.Sprintf("%s: the command would last %.2f s, more than max_duration %s; nothing was published: ask for less", tp.name, secs, limit)), nil
	}
	d := time.Duration(secs * float64(time.Second))
	m := &motion{tool: tp.name, stop: make(chan struct{}), ended: make(chan struct{})}
	defer c.track(key, m)()
	defer close(m.ended)
	period := time.Duration(float64(time.Second) / pd.RateHz)
	start := time.Now()
	sent := 0
	var pubErr error
	publish := func() bool {
		if err := c.cl.Publish(ctx, pd.Topic, msg); err != nil {
			pubErr = err
			return false
		}
		sent++
		return true
	}
	how := "ran its full duration"
	if publish() {
		tick := time.NewTicker(period)
		end := time.NewTimer(d)
	loop:
		for {
			select {
			case <-tick.C:
				if !publish() {
					break loop
				}
			case <-end.C:
				break loop
			case <-m.stop:
				how = "was stopped by the harness"
				break loop
			case <-ctx.Done():
				how = "was abandoned"
				break loop
			}
		}
		tick.Stop()
		end.Stop()
	}
	zctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), zeroTimeout)
	zeroErr := c.cl.Publish(zctx, pd.Topic, zero)
	cancel()
	elapsed := time.Since(start)
	switch {
	case pubErr != nil:
		note := "the zero message was published"
		if zeroErr != nil {
			note = fmt.Sprintf("the zero message failed too: %v", zeroErr)
		}
		return runlog.Envelope{}, transportErr(fmt.Errorf("publishing on %s failed after %d messages (%s): %w", pd.Topic, sent, note, pubErr))
	case zeroErr != nil:
		return runlog.Envelope{}, transportErr(fmt.Errorf("the zero message on %s failed after %d messages: %w", pd.Topic, sent, zeroErr))
	case ctx.Err() != nil:
		return runlog.Envelope{}, ctx.Err()
	}
	v := map[string]any{"published": sent, "seconds": math.Round(elapsed.Seconds()*1000) / 1000, "zero_sent": true}
	if how != "ran its full duration" {
		env := runlog.Failure(fmt.Sprintf("%s %s after %.2f s of %.2f s; the zero message was published", tp.name, how, elapsed.Seconds(), secs))
		env.Value = v
		return env, nil
	}
	return runlog.Envelope{Success: true, Value: v}, nil
}
