package body

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/thea-harness/thea/runlog"

	"github.com/thea-harness/thea/engine"
)

// killSlack is how long a kill may take once decided: the back-end's exit
// (a polite close's wait, then its process group killed) and the end of the
// call it ran.
const killSlack = 3 * time.Second

// stopPathBound is the longest an abandoned motion's stop path takes: the
// kind's stop, stop_grace, then a kill.
func (ts *Toolset) stopPathBound() time.Duration {
	d := ts.cfg.StopGrace + killSlack
	if st := ts.profile.Stop; st != nil {
		d += st.Timeout
	}
	return d
}

// holdTask keeps the running task's done back until the stop path of an
// abandoned motion has ended (bounded by stopPathBound), so the stop call,
// the late reply or the kill are events of the task that issued the motion.
func (ts *Toolset) holdTask(tool, what string) func() {
	if ts.tc.Stream == nil {
		return func() {}
	}
	return ts.tc.Stream.Hold(fmt.Sprintf("the stop path of %s (it %s on the %s back-end)", tool, what, ts.name), ts.stopPathBound())
}

// interruptPlan says what the harness does about an abandoned motion.
func (ts *Toolset) interruptPlan() string {
	if st := ts.profile.Stop; st != nil {
		return fmt.Sprintf("the harness called the %s and kills the %s back-end if the motion has not ended within %s", st.Name, ts.name, ts.cfg.StopGrace)
	}
	return fmt.Sprintf("no stop tool is declared, so the harness kills and restarts the %s back-end if the motion has not ended within %s", ts.name, ts.cfg.StopGrace)
}

// watch follows an abandoned physical call: it calls the kind's stop, then
// waits up to stop_grace for the reply (logged and reported as a late
// reply); without one it kills the back-end (restarted on the next call).
// Only then is the motion ended, the body's lock released, and release
// called (the task's done may follow).
func (ts *Toolset) watch(f *flight, what string, release func()) {
	defer release()
	m := f.motion
	why := m.Tool + " " + what
	ts.stopMotion(f, why)
	grace := ts.cfg.StopGrace
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case r := <-f.done:
		env := runlog.Envelope{}
		switch {
		case r.err == nil:
			env = r.r.Envelope
		case errors.Is(r.err, engine.ErrBackendCrashed) && !ts.isClosed():
			env = runlog.Failure(ts.crashed(f.conn, m.Tool, r.err))
		default:
			env = runlog.Failure(fmt.Sprintf("%s failed: %v", m.Tool, r.err))
		}
		ts.logger.Warn("late reply of an abandoned physical call", "tool", m.Tool, "after", time.Since(m.Start), "success", env.Success, "reason", env.Reason)
		ts.emit(engine.SafetyEvent{Kind: SafetyLateReply, Tool: m.Tool, Envelope: env, After: time.Since(m.Start),
			Text: fmt.Sprintf("%s answered %s after it %s", m.Tool, time.Since(m.Start).Round(time.Millisecond), what)})
	case <-timer.C:
		reason := fmt.Sprintf("%s and did not answer within stop_grace %s", why, grace)
		ts.logger.Warn("killing the back-end of an abandoned physical call", "tool", m.Tool, "why", reason)
		ts.setLastCrash("killed by the harness: " + reason)
		start := time.Now()
		ts.stopKill(f.conn) // reconnected on the next call, not counted as a restart
		f.cancel()          // a transport that cannot kill abandons the request instead
		r := <-f.done
		took := time.Since(start)
		ts.emit(engine.SafetyEvent{Kind: SafetyKilled, Tool: m.Tool, After: time.Since(m.Start), Envelope: runlog.Failure(reason),
			Text: fmt.Sprintf("the %s back-end was killed: %s; the call ended %s after the kill", ts.name, reason, roundShort(took)),
			Stop: &runlog.StopCall{Via: runlog.StopViaKill, Why: why, OK: true, DurationMS: runlog.Millis(took)}})
		if r.err != nil && ts.cfg.OnUncertain != "continue" {
			// No reply: whatever the stop answered, the robot never said
			// the motion ended.
			stop := f.stopSaid
			if stop == "" {
				stop = "no stop is declared"
			}
			if m.Unended(stop) {
				ts.logger.Warn("a killed motion never reported its end", "tool", m.Tool)
				ts.emit(engine.SafetyEvent{Kind: SafetyEndUnreported, Tool: m.Tool, After: time.Since(m.Start), Envelope: runlog.Failure(reason),
					Text: fmt.Sprintf("%s never reported an end (%s): physical calls are refused until the robot reports its end or an operator clears it; an observation does not clear it", m.Tool, stop)})
			}
		}
	}
	ts.untrack(f)
	f.cancel()
	m.End("ended after being abandoned")
}

// stopMotion calls the kind's stop once for f, on f's connection, bounded by
// its timeout; its outcome and duration are logged and reported.
func (ts *Toolset) stopMotion(f *flight, why string) {
	st := ts.profile.Stop
	if st == nil {
		return
	}
	f.stop.Do(func() {
		// Timed from before the deadline is set: a stop that hangs until
		// its timeout is on the record as taking at least that long.
		start := time.Now()
		ctx, cancel := context.WithTimeout(f.base, st.Timeout)
		defer cancel()
		env, err := f.conn.Stop(ctx, &f.motion.Motion)
		took := time.Since(start)
		if err != nil {
			env = runlog.Failure(fmt.Sprintf("the %s failed: %v", st.Name, err))
		}
		outcome := "it answered success"
		f.stopSaid = fmt.Sprintf("the %s answered success", st.Name)
		if !env.Success {
			outcome = "it failed"
			f.stopSaid = fmt.Sprintf("the %s failed: %s", st.Name, env.Reason)
		}
		ts.logger.Warn("stop called", "stop", st.Name, "tool", f.motion.Tool, "why", why, "success", env.Success, "reason", env.Reason, "took", took)
		ts.emit(engine.SafetyEvent{Kind: SafetyStop, Tool: f.motion.Tool, Envelope: env, After: time.Since(f.motion.Start),
			Text: fmt.Sprintf("%s called because %s: %s in %s", st.Name, why, outcome, roundShort(took)),
			Stop: &runlog.StopCall{Via: st.Via, Tool: st.Tool, Why: why, OK: env.Success, DurationMS: runlog.Millis(took)}})
	})
}

// closeFlights is Close's part of the stop path: each physical call still
// in flight is marked uncertain, stopped with the kind's stop (once), and
// its back-end killed; each kill is reported like one after stop_grace.
func (ts *Toolset) closeFlights(flights []*flight) {
	const why = "the session closed"
	if len(flights) == 0 {
		return
	}
	// The task may end while a killed back-end exits: its done waits.
	if ts.tc.Stream != nil {
		var stop time.Duration
		if st := ts.profile.Stop; st != nil {
			stop = st.Timeout
		}
		bound := time.Duration(len(flights)) * (stop + killSlack)
		defer ts.tc.Stream.Hold(fmt.Sprintf("the stop path of the %s back-end closing", ts.name), bound)()
	}
	for _, f := range flights {
		ts.markUncertain(f.motion.Tool, "was in flight when the session closed")
		ts.stopMotion(f, why)
	}
	for _, f := range flights {
		start := time.Now()
		f.conn.Kill() // a motion still running ends with its back-end
		took := time.Since(start)
		ts.emit(engine.SafetyEvent{Kind: SafetyKilled, Tool: f.motion.Tool, After: time.Since(f.motion.Start),
			Envelope: runlog.Failure(f.motion.Tool + " was in flight when " + why),
			Text:     fmt.Sprintf("the %s back-end was killed because %s with %s in flight; it exited %s after the kill", ts.name, why, f.motion.Tool, roundShort(took)),
			Stop:     &runlog.StopCall{Via: runlog.StopViaKill, Why: why, OK: true, DurationMS: runlog.Millis(took)}})
	}
}

// roundShort rounds a duration for a sentence: to the millisecond, or to
// the microsecond below one.
func roundShort(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
