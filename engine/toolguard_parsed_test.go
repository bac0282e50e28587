package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The fixed turn checks a call's arguments against the inputSchema before
// the hooks (Turn.chain), so the guard runs the tool on the checked bytes
// without parsing or validating them again: bytes the schema would refuse
// reach the tool as they are.
func TestGuardRunsCheckedArgumentsAsTheyAre(t *testing.T) {
	ran := 0
	tool := &fakeTool{name: "move", schema: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`,
		fn: func(context.Context) runlog.Envelope { ran++; return runlog.Envelope{Success: true} }}
	g, err := GuardTool(tool, schema.ToolContract{}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{}
	rt := &RegisteredTool{tool: g}
	if env := h.invokeChecked(t.Context(), rt, json.RawMessage(`{"n":"checked already"}`)); !env.Success || ran != 1 {
		t.Fatalf("env %+v after %d runs: the guard checked the arguments again", env, ran)
	}
}
