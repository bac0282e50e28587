package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/thea-harness/thea/runlog"
)

// traceSink turns one task's events into spans: the task (invoke_agent),
// under it one span per turn, and under a turn its model calls (chat) and
// its tool call (execute_tool) with the call's hook decisions and verdict
// as span events. Times are the events' own, so a span queued and
// delivered later still spans what it measured. The events are the bus's,
// redacted, so no attribute holds a secret the run log would not.
type traceSink struct {
	t        *Tracing
	task     int
	root     trace.Span
	rootCtx  context.Context
	turn     int
	turnSpan trace.Span
	turnCtx  context.Context
	tools    map[string]trace.Span // by call id, until the result
}

// Attribute keys of Thea's own (no GenAI convention names them).
const (
	attrTask     = attribute.Key("thea.task")
	attrTurn     = attribute.Key("thea.turn")
	attrPurpose  = attribute.Key("thea.model.purpose")
	attrReason   = attribute.Key("thea.done.reason")
	attrHook     = attribute.Key("thea.hook.name")
	attrPhase    = attribute.Key("thea.hook.phase")
	attrDecision = attribute.Key("thea.hook.decision")
	attrWhy      = attribute.Key("thea.reason")
	attrVerdict  = attribute.Key("thea.verdict.status")
	attrSafety   = attribute.Key("thea.safety.kind")
)

// Write implements engine.Sink.
func (s *traceSink) Write(ev runlog.Event) error {
	if s.root == nil {
		s.start(ev)
	}
	if ev.Turn > s.turn && ev.Kind != runlog.EventDone {
		s.endTurn(ev)
		s.turn = ev.Turn
		s.turnCtx, s.turnSpan = s.t.tracer.Start(s.rootCtx, fmt.Sprintf("turn %d", ev.Turn),
			trace.WithTimestamp(ev.Time), trace.WithAttributes(attrTask.Int(s.task), attrTurn.Int(ev.Turn)))
	}
	switch ev.Kind {
	case runlog.EventModelCall:
		s.modelCall(ev.ModelCall)
	case runlog.EventHook, runlog.EventToolCall:
		sp := s.tool(ev)
		if d := ev.Hook; d != nil {
			sp.AddEvent("hook", trace.WithTimestamp(ev.Time), trace.WithAttributes(attrHook.String(d.Hook),
				attrPhase.String(d.Phase), attrDecision.String(string(d.Decision)), attrWhy.String(d.Reason)))
		}
	case runlog.EventEvaluation:
		if v := ev.Verdict; v != nil {
			s.tool(ev).AddEvent("verdict", trace.WithTimestamp(ev.Time),
				trace.WithAttributes(attrVerdict.String(string(v.Status)), attrWhy.String(v.Reason)))
		}
	case runlog.EventToolResult:
		sp := s.tool(ev)
		delete(s.tools, ev.CallID)
		if ev.Result != nil && !ev.Result.Success {
			sp.SetStatus(codes.Error, ev.Result.Reason)
			sp.SetAttributes(semconv.ErrorTypeKey.String("tool_failure"))
		}
		sp.End(trace.WithTimestamp(ev.Time))
	case runlog.EventSafety:
		s.current().AddEvent("safety", trace.WithTimestamp(ev.Time),
			trace.WithAttributes(attrSafety.String(string(ev.Safety)), attrWhy.String(ev.Text)))
	case runlog.EventDone:
		s.done(ev)
	}
	return nil
}

// start opens the task's span at its first event (task_start).
func (s *traceSink) start(ev runlog.Event) {
	name := "invoke_agent"
	if s.t.agent != "" {
		name += " " + s.t.agent
	}
	s.rootCtx, s.root = s.t.tracer.Start(context.Background(), name, trace.WithTimestamp(ev.Time),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(s.t.agent), attrTask.Int(s.task)))
}

// current is the span new children belong to: the turn's, or the task's
// before the first turn.
func (s *traceSink) current() trace.Span {
	if s.turnSpan != nil {
		return s.turnSpan
	}
	return s.root
}

func (s *traceSink) parent() context.Context {
	if s.turnCtx != nil {
		return s.turnCtx
	}
	return s.rootCtx
}

// modelCall is a chat span timed by the call itself.
func (s *traceSink) modelCall(mc *runlog.ModelCall) {
	if mc == nil {
		return
	}
	provider, name, _ := strings.Cut(mc.Model, "/")
	_, sp := s.t.tracer.Start(s.parent(), strings.TrimSpace("chat "+name), trace.WithTimestamp(mc.Start),
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.GenAIOperationNameChat, semconv.GenAIProviderNameKey.String(provider),
			semconv.GenAIRequestModel(name), attrPurpose.String(string(mc.Purpose)),
			semconv.GenAIUsageInputTokens(mc.Usage.InputTokens), semconv.GenAIUsageOutputTokens(mc.Usage.OutputTokens)))
	if mc.Error != "" {
		sp.SetStatus(codes.Error, mc.Error)
		sp.SetAttributes(semconv.ErrorTypeKey.String("model_error"))
	}
	sp.End(trace.WithTimestamp(mc.Start.Add(mc.Duration)))
}

// tool is the execute_tool span of ev's call, opened at the call's first
// event (a pre-hook's decision, or the call itself).
func (s *traceSink) tool(ev runlog.Event) trace.Span {
	if sp, ok := s.tools[ev.CallID]; ok {
		return sp
	}
	_, sp := s.t.tracer.Start(s.parent(), "execute_tool "+ev.Tool, trace.WithTimestamp(ev.Time),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(ev.Tool), semconv.GenAIToolCallID(ev.CallID)))
	s.tools[ev.CallID] = sp
	return sp
}

func (s *traceSink) endTurn(ev runlog.Event) {
	for id, sp := range s.tools { // a call left without a result (the task stopped)
		sp.End(trace.WithTimestamp(ev.Time))
		delete(s.tools, id)
	}
	if s.turnSpan != nil {
		s.turnSpan.End(trace.WithTimestamp(ev.Time))
		s.turnSpan, s.turnCtx = nil, nil
	}
}

func (s *traceSink) done(ev runlog.Event) {
	s.endTurn(ev)
	if rep := ev.Done; rep != nil {
		s.root.SetAttributes(attrReason.String(string(rep.Reason)), attribute.Int("thea.turns", rep.Turns))
		if rep.Reason == runlog.DoneError {
			s.root.SetStatus(codes.Error, rep.Error)
		}
	}
	s.root.End(trace.WithTimestamp(ev.Time))
}

// Close implements engine.Sink: a task that ended without its done event
// still closes its spans.
func (s *traceSink) Close() error {
	if s.root != nil && s.root.IsRecording() {
		s.endTurn(runlog.Event{})
		s.root.End()
	}
	return nil
}
