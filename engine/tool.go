package engine

import (
	"context"
	"encoding/json"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Tool is one capability. Call never panics and never returns a Go error:
// every failure (bad arguments, timeout, crashed back-end) is an Envelope with
// Success false and a Reason the model can act on.
type Tool interface {
	Def() model.ToolDef
	Call(ctx context.Context, args json.RawMessage) runlog.Envelope
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

// RegisteredTool is a tool in the session's flat registry with its
// effective contract. The model cannot tell builtin and MCP tools apart.
// The tool itself is the engine's: it runs only through the session's call
// path (the hook chain, or a read of a tool that is not physical).
type RegisteredTool struct {
	tool    Tool
	Toolset string
	// Contract is the effective contract (EffectiveContract): the spec's
	// merged with what the transport declares.
	Contract schema.ToolContract
	// Declared is what the transport declares of the tool (physical, its
	// stop path).
	Declared Declared
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
