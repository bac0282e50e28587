package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A response with 10,000 tool calls runs the first and refuses the others:
// the transcript keeps the first call and five more, each answered by its
// own result (as the OpenAI and Anthropic wires require), the last counting
// the calls it does not keep, so the next request stays small.
func TestManyCallsOneBoundedRefusal(t *testing.T) {
	const n = 10000
	pad := strings.Repeat("x", 300)
	calls := make([]model.ToolCall, n)
	for i := range calls {
		calls[i] = model.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "move", Arguments: json.RawMessage(fmt.Sprintf(`{"d":%d,"pad":%q}`, i, pad))}
	}
	f := newFixture(t, toolResp("all at once", calls...), toolResp("done"))
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "go"))
	if got := f.tool("move").calls.Load(); got != 1 {
		t.Fatalf("move ran %d times, want 1", got)
	}
	results := 0
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult {
			results++
		}
	}
	if results != 1 {
		t.Fatalf("%d tool_result events, want 1", results)
	}
	next := f.decide.requests()[1]
	b, err := json.Marshal(next)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 32<<10 {
		t.Fatalf("the request after 10,000 calls is %d bytes, want at most %d", len(b), 32<<10)
	}
	ids, answered := callIDs(next), answers(next)
	if len(ids) != 6 || ids[0] != "c0" || ids[5] != "c5" {
		t.Fatalf("transcript calls %v, want c0 to c5", ids)
	}
	for _, id := range ids {
		if len(answered[id]) != 1 {
			t.Fatalf("call %s has %d results, want 1: %v", id, len(answered[id]), answered)
		}
	}
	if last := answered["c5"][0]; !strings.Contains(last, "The response's 9994 calls after this one were not executed either.") {
		t.Fatalf("the last refusal %q does not count the calls it does not keep", last)
	}
}

// Arguments nested past the decoder's depth limit reach a provider as
// malformed text (model.ArgumentsFromText wraps it in a JSON string); the
// model is told the nesting is too deep, not that it sent a string.
func TestDeepArgumentsSayNestingDepth(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	raw := model.ArgumentsFromText(deep)
	if raw[0] != '"' {
		t.Fatalf("the provider kept %.20q as JSON: the test needs text past the depth limit", raw)
	}
	f := newFixture(t, toolResp("", model.ToolCall{Name: "move", Arguments: raw}), toolResp("done"))
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "go"))
	for _, ev := range evs {
		if ev.Kind != runlog.EventToolResult {
			continue
		}
		if r := ev.Result.Reason; !strings.Contains(r, "nesting deeper than 10000") || strings.Contains(r, "got a string") {
			t.Fatalf("reason %q, want the nesting depth and its limit", r)
		}
		return
	}
	t.Fatalf("no tool result: %v", kinds(evs))
}

// callStage calls a tool through the stage API, as observe does.
type callStage struct{ tool string }

func (callStage) Name() string { return "call_tool" }
func (s callStage) Run(ctx context.Context, t *engine.Turn) error {
	t.CallTool(ctx, s.tool, map[string]any{"d": 1.0})
	return nil
}

// A stage that calls a physical tool goes through the pre-hooks: a block
// keeps the tool from running.
func TestStageCallToolRunsHooksOnPhysicalTools(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.spec.Tools["move"] = schema.ToolContract{Physical: true}
	var hooked []string
	f.policy.pre = func(cc *engine.CallContext) engine.PreResult {
		hooked = append(hooked, cc.Call.Tool)
		return engine.PreResult{Hook: "fence", Reason: "no"}
	}
	f.spec.Loop.Stages = []string{"task_notes", "call_tool", "observe", "decide", "execute", "record"}
	opts := f.options(t)
	must(t, opts.Components.Add(engine.StageKind{Name: "call_tool", New: func(*schema.Spec) (engine.Stage, error) { return callStage{"move"}, nil }}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	if _, err := h.Run(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if got := f.tool("move").calls.Load(); got != 0 || len(hooked) != 1 || hooked[0] != "move" {
		t.Fatalf("move ran %d times, hooks saw %v: want blocked by the pre-hooks", got, hooked)
	}
}
