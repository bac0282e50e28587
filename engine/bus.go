package engine

import (
	"fmt"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
)

// taskSink is one open sink of a task and what it lost.
type taskSink struct {
	name     string // "run log", or "event sink N"
	sink     Sink
	required bool // a failure stops the task (run_log.required)
	failed   bool // a write failed: reported once, later failures only logged
}

// publish is the one event bus: the event is redacted once, then written to
// every sink of the task, then yielded to the RunStream consumer. Nothing
// reaches a sink or the consumer unredacted.
func (h *Harness) publish(t *task, ev runlog.Event) {
	ev = redact.Value(h.redactor, ev)
	// Consolidation reads the redacted trace: memory never holds a secret.
	// Without consolidation nothing reads it.
	if h.consolidator != nil {
		t.trace.observe(ev)
	}
	var failed []int
	for i := range t.sinks {
		s := &t.sinks[i]
		if err := s.sink.Write(ev); err != nil {
			h.log.Error("event sink write", "sink", s.name, "kind", ev.Kind, "err", err)
			if !s.failed {
				s.failed = true
				failed = append(failed, i)
				t.incomplete = append(t.incomplete, fmt.Sprintf("%s incomplete from turn %d: %v", s.name, ev.Turn, err))
			}
		}
	}
	h.yield(t, ev)
	for _, i := range failed {
		h.reportSinkFailure(t, i, ev)
	}
}

// reportSinkFailure tells every other sink and the consumer that sink i
// lost an event, and stops the task when the spec requires a complete run
// log.
func (h *Harness) reportSinkFailure(t *task, i int, cause runlog.Event) {
	msg := redact.Value(h.redactor, t.incomplete[len(t.incomplete)-1])
	ev := runlog.Event{Kind: runlog.EventSinkError, Time: cause.Time, Task: cause.Task, Turn: cause.Turn, Text: msg}
	for j := range t.sinks {
		if j == i {
			continue
		}
		if err := t.sinks[j].sink.Write(ev); err != nil {
			h.log.Error("event sink write", "sink", t.sinks[j].name, "kind", ev.Kind, "err", err)
		}
	}
	h.yield(t, ev)
	if t.sinks[i].required && t.halt == nil && cause.Kind != runlog.EventDone {
		t.halt = &runlog.Report{Reason: runlog.DoneError, Error: msg + " (run_log.required)"}
	}
}

// yield hands an event to the RunStream consumer unless it stopped reading.
func (h *Harness) yield(t *task, ev runlog.Event) {
	if t.stopped {
		return
	}
	t.yielding = true
	ok := t.yield(ev)
	t.yielding = false
	if !ok {
		t.stopped = true
	}
}
