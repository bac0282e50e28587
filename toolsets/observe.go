package toolsets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// rawLimit bounds the raw text of a failed observation kept in its reason.
const rawLimit = 2048

// observationFields are the JSON fields of schema.Observation: a result with
// none of them is not an observation.
func observationFields() []string {
	return []string{"run_id", "clearance", "detections", "held", "pose", "images", "state", "summary"}
}

// observed checks the observation tool's result against the documented
// schema.Observation shape. A well-formed observation clears the body's
// uncertainty (if it started after every motion ended); anything else is a
// failed observation that clears nothing, its raw text kept in the reason.
func (ts *MCPToolset) observed(tool string, res *mcp.CallToolResult, started time.Time) engine.Envelope {
	env := toEnvelope(tool, res)
	if env.Success {
		if why := notObservation(res, env); why != "" {
			env = engine.Failure(fmt.Sprintf("%s returned no usable observation (%s); the robot's state is unknown. Raw result: %s",
				tool, why, bounded(rawResult(res), rawLimit)))
		}
	}
	if !env.Success {
		ts.logger.Warn("failed observation", "tool", tool, "reason", env.Reason)
		ts.emit(SafetyEvent{Kind: SafetyObservationFailed, Tool: tool, Envelope: env, Text: env.Reason})
		return env
	}
	if ts.body.ObservationTaken(started) {
		ts.emit(SafetyEvent{Kind: SafetyUncertaintyCleared, Tool: tool, Text: "cleared by a well-formed observation"})
	}
	return env
}

// notObservation says why a successful result is not an Observation, or "".
func notObservation(res *mcp.CallToolResult, env engine.Envelope) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			t := bytes.TrimSpace([]byte(tc.Text))
			if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
				return "its text is not a JSON object"
			}
		}
	}
	found := false
	for _, f := range observationFields() {
		if _, ok := env.Value[f]; ok {
			found = true
		}
	}
	if !found {
		return "it has none of the observation fields " + strings.Join(observationFields(), ", ")
	}
	b, err := json.Marshal(env.Value)
	if err != nil {
		return fmt.Sprintf("its value cannot be encoded: %v", err)
	}
	var obs schema.Observation
	if err := json.Unmarshal(b, &obs); err != nil {
		return fmt.Sprintf("it does not decode as an observation: %v", err)
	}
	return ""
}

// rawResult renders a result's text and structured content as sent.
func rawResult(res *mcp.CallToolResult) string {
	var parts []string
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			parts = append(parts, c.Text)
		case mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s]", c.MIMEType))
		default:
			if s := otherContent(c); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, "\n")
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
