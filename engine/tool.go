package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// Tool is one capability. Call never panics and never returns a Go error:
// every failure (bad arguments, timeout, crashed back-end) is an Envelope with
// Success false and a Reason the model can act on.
type Tool interface {
	Def() model.ToolDef
	Call(ctx context.Context, args json.RawMessage) Envelope
}

// ContextBound marks a tool that returns as soon as its context ends (a
// client that honours cancellation, a call that abandons a motion to the
// body layer): the guard calls it on the caller's goroutine instead of
// racing it against the context in another.
type ContextBound interface{ ReturnsOnCancel() }

// SelfTimed is a tool whose wait is bounded elsewhere when SelfTimed says
// so (query_user: a person answers on their own time, and the user channel
// applies user.timeout): the guard then applies only the tool's contract's
// timeout, never the toolset's.
type SelfTimed interface{ SelfTimed() bool }

// Toolset is one source of tools, listed once at session start.
type Toolset interface {
	Name() string
	Tools(ctx context.Context) ([]Tool, error)
	// Close releases everything the toolset owns (subprocesses included); it is
	// idempotent.
	Close() error
}

// RegisteredTool is a tool in the session's flat registry with the spec's side
// of its contract. The model cannot tell builtin and MCP tools apart.
type RegisteredTool struct {
	Tool     Tool
	Toolset  string
	Contract schema.ToolContract
	// Def is what the model sees: the back-end's description, the spec's
	// addendum and the tool-experience summary.
	Def model.ToolDef
}

// Call is one tool call chosen by the model (or made by the harness).
type Call struct {
	ID    string          `json:"id"`
	Tool  string          `json:"tool"`
	Args  map[string]any  `json:"args"`
	Raw   json.RawMessage `json:"-"`
	Turn  int             `json:"turn"`
	RunID string          `json:"run_id,omitempty"`
}

// Envelope is the uniform result of every call: {success: true, ...value} or
// {success: false, reason}.
type Envelope struct {
	Success bool           `json:"success"`
	Value   map[string]any `json:"value,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	// Images are transient tool-result images: sent with the one model call
	// that consumes them, then replaced by a placeholder.
	Images []schema.Image `json:"-"`
	// RunID identifies an evaluated run; Verdict is the evaluator's judgement.
	RunID    string          `json:"run_id,omitempty"`
	Verdict  *schema.Verdict `json:"verdict,omitempty"`
	Duration time.Duration   `json:"-"`
}

// Failure builds a failure envelope.
func Failure(reason string) Envelope { return Envelope{Success: false, Reason: reason} }

// MarshalJSON writes the envelope in its documented flat form: value fields sit
// beside success (a value field named like an envelope field is dropped).
func (e Envelope) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(e.Value)+4)
	for k, v := range e.Value {
		m[k] = v
	}
	m["success"] = e.Success
	if e.Reason != "" {
		m["reason"] = e.Reason
	} else {
		delete(m, "reason")
	}
	if e.RunID != "" {
		m["run_id"] = e.RunID
	}
	if e.Verdict != nil {
		m["verdict"] = e.Verdict
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the flat form back (run logs, replay).
func (e *Envelope) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	*e = Envelope{}
	for k, raw := range m {
		var err error
		switch k {
		case "success":
			err = json.Unmarshal(raw, &e.Success)
		case "reason":
			err = json.Unmarshal(raw, &e.Reason)
		case "run_id":
			err = json.Unmarshal(raw, &e.RunID)
		case "verdict":
			e.Verdict = new(schema.Verdict)
			err = json.Unmarshal(raw, e.Verdict)
		default:
			var v any
			err = json.Unmarshal(raw, &v)
			if e.Value == nil {
				e.Value = map[string]any{}
			}
			e.Value[k] = v
		}
		if err != nil {
			return fmt.Errorf("envelope field %q: %w", k, err)
		}
	}
	return nil
}
