package body

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// rawLimit bounds the raw text of a failed observation kept in its reason.
const rawLimit = 2048

// observed checks the observation tool's reply against the documented
// world.Observation shape. A well-formed observation clears the body's
// uncertainty (if it started after every motion ended); anything else is a
// failed observation that clears nothing, its raw text kept in the reason.
func (ts *Toolset) observed(tool string, r engine.BackendReply, started time.Time) runlog.Envelope {
	env := r.Envelope
	if env.Success {
		if why := notObservation(r); why != "" {
			env = runlog.Failure(fmt.Sprintf("%s returned no usable observation (%s); the robot's state is unknown. Raw result: %s",
				tool, why, bounded(rawReply(r), rawLimit)))
		}
	}
	if !env.Success {
		ts.logger.Warn("failed observation", "tool", tool, "reason", env.Reason)
		ts.emit(engine.SafetyEvent{Kind: SafetyObservationFailed, Tool: tool, Envelope: env, Text: env.Reason})
		return env
	}
	if ts.body.ObservationTaken(started) {
		ts.emit(engine.SafetyEvent{Kind: SafetyUncertaintyCleared, Tool: tool, Text: "cleared by a well-formed observation"})
	}
	return env
}

// notObservation says why a successful reply is not an Observation (by
// the one decoder, world.DecodeValue), or "".
func notObservation(r engine.BackendReply) string {
	if r.Malformed != "" {
		return r.Malformed
	}
	if _, err := world.DecodeValue(r.Envelope.Value); err != nil {
		return err.Error()
	}
	return ""
}

// rawReply renders a reply as sent, or its envelope when the transport
// cannot.
func rawReply(r engine.BackendReply) string {
	if r.Raw != nil {
		return r.Raw()
	}
	b, err := json.Marshal(r.Envelope)
	if err != nil {
		return fmt.Sprintf("(an envelope that cannot be encoded: %v)", err)
	}
	return string(b)
}

// bounded cuts s to at most n bytes (on a rune boundary), saying how much was cut.
func bounded(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d more bytes)", s[:cut], len(s)-cut)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
