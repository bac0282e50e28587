package engine

import (
	"errors"
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"time"
)

// Sink receives every event of one task, in order, after redaction: the run
// log is one; an SSE stream or a report plug in the same way. Write errors
// are logged and do not stop the task; Close is called once, after the
// task's done event.
type Sink interface {
	Write(runlog.Event) error
	Close() error
}

// TaskInfo is what a sink is opened with at the start of a task.
type TaskInfo struct {
	Task  int       // the task's number in the session, from 1
	Start time.Time // when it started (the run directory is named after it)
	// RunDir is the task's run-log directory; empty when the run log is off.
	RunDir string
}

// SinkFactory opens a sink for one task (Options.Sinks).
type SinkFactory func(TaskInfo) (Sink, error)

// openSinks opens the run log (when enabled) and every Options.Sinks
// factory for a task. On error, the sinks already open are closed.
func (h *Harness) openSinks(info *TaskInfo) ([]taskSink, error) {
	var sinks []taskSink
	fail := func(err error) ([]taskSink, error) {
		return nil, errors.Join(err, closeSinks(sinks))
	}
	if h.runLogDir != "" {
		l, err := openRunLog(h.runLogDir, info.Start, info.Task)
		if err != nil {
			return fail(err)
		}
		info.RunDir = l.Dir()
		sinks = append(sinks, taskSink{name: "run log", sink: l, required: h.spec.RunLog.Required})
	}
	for i, f := range h.opts.Sinks {
		s, err := f(*info)
		if err != nil {
			return fail(fmt.Errorf("event sink %d: %w", i, err))
		}
		sinks = append(sinks, taskSink{name: fmt.Sprintf("event sink %d", i), sink: s})
	}
	return sinks, nil
}

// closeSinks closes every sink, returning all their errors.
func closeSinks(sinks []taskSink) error {
	var errs []error
	for _, s := range sinks {
		if err := s.sink.Close(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
		}
	}
	return errors.Join(errs...)
}
