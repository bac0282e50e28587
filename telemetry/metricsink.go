package telemetry

import (
	"strconv"
	"strings"
	"time"

	"github.com/thea-harness/thea/runlog"
)

// metricsSink reads one task's events into the registry.
type metricsSink struct {
	m     *Metrics
	turn  int
	calls map[string]callStart // tool calls that ran, by call id, until their result
}

type callStart struct {
	tool string
	at   time.Time
}

// Safety kinds after which a motion may have run unobserved, and those
// that end that uncertainty (see engine/body and the rosbridge toolset).
func uncertainty(kind runlog.SafetyKind) (set, clear bool) {
	switch kind {
	case runlog.SafetyLateReply, "backend_killed", "backend_crashed", "backend_unresponsive",
		"motion_end_unreported", "rosbridge_goal_given_up", "rosbridge_disconnected":
		return true, false
	case "uncertainty_cleared", runlog.SafetyOperatorClear, "motion_end_reported":
		return false, true
	}
	return false, false
}

// Write implements engine.Sink.
func (s *metricsSink) Write(ev runlog.Event) error {
	m := s.m
	if ev.Turn > s.turn {
		m.add(mTurns, float64(ev.Turn-s.turn))
		s.turn = ev.Turn
	}
	switch ev.Kind {
	case runlog.EventModelCall:
		s.modelCall(ev.ModelCall)
	case runlog.EventModelRetry:
		if ev.Retry != nil {
			m.inc(mModelRetries, string(ev.Retry.Purpose))
		}
	case runlog.EventToolCall:
		s.calls[ev.CallID] = callStart{tool: ev.Tool, at: ev.Time}
	case runlog.EventToolResult:
		s.toolResult(ev)
	case runlog.EventHook:
		if d := ev.Hook; d != nil {
			m.inc(mHookDecisions, d.Hook, d.Phase, string(d.Decision))
		}
	case runlog.EventEvaluation:
		if ev.Verdict != nil && ev.Verdict.Status.Valid() {
			m.inc(mVerdicts, string(ev.Verdict.Status))
		}
	case runlog.EventSafety:
		s.safety(ev)
	case runlog.EventCompaction:
		outcome := "failed"
		if ev.Compaction != nil && ev.Compaction.OK {
			outcome = "ok"
		}
		m.inc(mCompactions, outcome)
	case runlog.EventSinkError:
		m.inc(mSinkErrors)
	case runlog.EventDone:
		s.done(ev.Done)
	}
	return nil
}

func (s *metricsSink) modelCall(mc *runlog.ModelCall) {
	if mc == nil {
		return
	}
	provider, name, _ := strings.Cut(mc.Model, "/")
	p := string(mc.Purpose)
	outcome := "ok"
	if mc.Error != "" {
		outcome = "error"
	}
	s.m.inc(mModelCalls, provider, name, p, outcome)
	if mc.Duration > 0 {
		s.m.observe(mModelSeconds, mc.Duration.Seconds(), provider, name, p)
	}
	for typ, n := range map[string]int{"input": mc.Usage.InputTokens, "cached_input": mc.Usage.CachedInputTokens, "output": mc.Usage.OutputTokens} {
		if n > 0 {
			s.m.add(mModelTokens, float64(n), provider, name, p, typ)
		}
	}
}

// toolResult: only a call that reached its tool (a tool_call event, which
// the engine emits for registered tools alone) is labelled by tool.
func (s *metricsSink) toolResult(ev runlog.Event) {
	c, ran := s.calls[ev.CallID]
	if !ran {
		s.m.inc(mToolsNotRun)
		return
	}
	delete(s.calls, ev.CallID)
	outcome := "failure"
	if ev.Result != nil && ev.Result.Success {
		outcome = "success"
	}
	s.m.inc(mToolCalls, c.tool, outcome)
	d := ev.Time.Sub(c.at)
	if ev.Result != nil && ev.Result.Duration > 0 {
		d = ev.Result.Duration // the guard's own measure, without the hooks after it
	}
	s.m.observe(mToolSeconds, d.Seconds(), c.tool)
}

func (s *metricsSink) safety(ev runlog.Event) {
	s.m.inc(mSafetyEvents, string(ev.Safety))
	if ev.Safety == "backend_restarted" || ev.Safety == "rosbridge_reconnected" {
		s.m.inc(mRestarts)
	}
	if st := ev.Stop; st != nil {
		s.m.inc(mStops, st.Via, strconv.FormatBool(st.OK))
		s.m.observe(mStopSeconds, st.DurationMS/1000, st.Via)
	}
	if set, clear := uncertainty(ev.Safety); set || clear {
		s.m.setUncertain(set, ev.Time)
	}
}

func (s *metricsSink) done(rep *runlog.Report) {
	if rep == nil {
		return
	}
	s.m.inc(mTasks, string(rep.Reason))
	switch rep.Reason {
	case runlog.DoneMaxTurns, runlog.DoneFailureBudget, runlog.DoneLoopDetected:
		s.m.inc(mBudgets, string(rep.Reason))
	}
}

// Close implements engine.Sink.
func (s *metricsSink) Close() error { return nil }
