package body

import (
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// The body layer's kinds of engine.SafetyEvent; a transport names its own.
const (
	SafetyLateReply          = string(runlog.SafetyLateReply) // an abandoned physical call answered
	SafetyStop               = "stop"                         // the kind's stop was called (a stop tool, a cancel)
	SafetyKilled             = "backend_killed"               // no reply within stop_grace: back-end killed
	SafetyObservationFailed  = "observation_failed"           // the observation did not decode
	SafetyUncertaintyCleared = "uncertainty_cleared"          // by a well-formed observation
	SafetyCrashed            = "backend_crashed"              // the back-end died (or its connection did)
	SafetyRestarted          = "backend_restarted"            // a crashed back-end was started again
	SafetyRestartFailed      = "backend_restart_failed"
	SafetyUnresponsive       = "backend_unresponsive"  // timed out and no liveness answer (or calls keep hanging): killed
	SafetyEndUnreported      = "motion_end_unreported" // killed without a reply: uncertain until its end is reported
	SafetyEndReported        = "motion_end_reported"   // the robot reported the end of such a motion after all
	SafetyInterrupted        = "call_interrupted"      // a non-physical call lost its connection to the stop path's kill
)

// safetySink delivers safety events to the process's hook and to the
// session's event stream (as EventSafety), without blocking the caller.
func safetySink(hook func(engine.SafetyEvent), stream engine.TaskStream) func(engine.SafetyEvent) {
	return func(ev engine.SafetyEvent) {
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
