package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The fixed turn hands the guard the value decide parsed: the guard
// validates that value and does not parse the bytes again (the bytes here
// would fail the schema; the value passes), and it still refuses a value
// that breaks the schema, with the guard's own reason.
func TestGuardValidatesTheParsedValue(t *testing.T) {
	ran := 0
	tool := &fakeTool{name: "move", schema: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`,
		fn: func(context.Context) runlog.Envelope { ran++; return runlog.Envelope{Success: true} }}
	g, err := GuardTool(tool, schema.ToolContract{}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{}
	rt := &RegisteredTool{tool: g}
	raw := json.RawMessage(`{"n":"not parsed again"}`)
	if env := h.invokeParsed(t.Context(), rt, raw, map[string]any{"n": 2.0}); !env.Success || ran != 1 {
		t.Fatalf("env %+v after %d runs: the guard parsed the bytes instead of validating the value", env, ran)
	}
	env := h.invokeParsed(t.Context(), rt, json.RawMessage(`{"n":2}`), map[string]any{"n": "two"})
	if env.Success || ran != 1 || !strings.Contains(env.Reason, `invalid arguments for move: argument "n" must be integer`) {
		t.Fatalf("env %+v after %d runs: want the schema's refusal of the value", env, ran)
	}
}
