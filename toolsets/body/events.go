package body

import (
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// SafetyEvent kinds.
const (
	SafetyLateReply          = string(runlog.SafetyLateReply) // an abandoned physical call answered
	SafetyStop               = "stop"                         // the kind's stop was called (a stop tool, a cancel)
	SafetyKilled             = "backend_killed"               // no reply within stop_grace: back-end killed
	SafetyObservationFailed  = "observation_failed"           // the observation did not decode
	SafetyUncertaintyCleared = "uncertainty_cleared"          // by a well-formed observation
	SafetyCrashed            = "backend_crashed"              // the back-end died (or its connection did)
	SafetyRestarted          = "backend_restarted"            // a crashed back-end was started again
	SafetyRestartFailed      = "backend_restart_failed"
	SafetyStdoutGarbage      = "backend_stdout_garbage" // non-JSON lines on stdout: counted, sampled
	SafetyUnresponsive       = "backend_unresponsive"   // timed out and no liveness answer (or calls keep hanging): killed
)

// SafetyEvent is one event of motion safety, for the run log.
type SafetyEvent struct {
	Kind    string
	Toolset string
	Tool    string // the physical call concerned (or the observation tool)
	// Envelope is the late reply, the stop's result or the failed
	// observation (its Reason holds the raw text, bounded).
	Envelope runlog.Envelope
	// After is the time since the physical call started.
	After time.Duration
	Text  string
	// Stop is how the motion was stopped (stop and backend_killed events
	// of a stop path): the kind's stop or a kill, its outcome and duration.
	Stop *runlog.StopCall
}

// safetySink delivers safety events to the process's hook and to the
// session's event stream (as EventSafety), without blocking the caller.
func safetySink(hook func(SafetyEvent), stream engine.TaskStream) func(SafetyEvent) {
	return func(ev SafetyEvent) {
		if hook != nil {
			hook(ev)
		}
		if stream == nil {
			return
		}
		text := ev.Kind + ":"
		if ev.Tool != "" {
			text += " " + ev.Tool
		}
		if ev.Toolset != "" {
			text += " on the " + ev.Toolset + " back-end"
		}
		if ev.After > 0 {
			text += fmt.Sprintf(" (%s after it started)", ev.After.Round(time.Millisecond))
		}
		if ev.Text != "" {
			text += ": " + ev.Text
		}
		env := ev.Envelope
		stream.Emit(runlog.Event{Kind: runlog.EventSafety, Safety: runlog.SafetyKind(ev.Kind), Tool: ev.Tool, Text: text, Result: &env, Stop: ev.Stop})
	}
}
