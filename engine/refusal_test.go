package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// callIDs lists the ids of the calls a request's transcript holds, in order.
func callIDs(req model.Request) []string {
	var ids []string
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// answers maps each call id to the texts of the tool results that answer it.
func answers(req model.Request) map[string][]string {
	out := map[string][]string{}
	for _, m := range req.Messages {
		if m.Role == model.RoleTool {
			out[m.ToolCallID] = append(out[m.ToolCallID], m.Text())
		}
	}
	return out
}

// refusalRun runs one response of several calls, then a final answer, and
// returns the request after it, checked for the wires' rule: every call
// the transcript holds has exactly one result, each one JSON envelope, a
// refused call's its own failure envelope.
func refusalRun(t *testing.T, setup func(f *fixture), calls ...model.ToolCall) model.Request {
	t.Helper()
	for i := range calls {
		calls[i].ID = "id" + string(rune('a'+i))
	}
	f := newFixture(t, toolResp("", calls...), toolResp("done"))
	if setup != nil {
		setup(f)
	}
	if _, err := f.harness(t).Run(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	next := f.decide.requests()[1]
	ids, answered := callIDs(next), answers(next)
	if len(ids) != len(calls) {
		t.Fatalf("transcript calls %v, want all %d", ids, len(calls))
	}
	for i, id := range ids {
		texts := answered[id]
		if len(texts) != 1 {
			t.Fatalf("call %s has %d results, want exactly 1", id, len(texts))
		}
		var env struct {
			Success *bool  `json:"success"`
			Reason  string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(texts[0]), &env); err != nil || env.Success == nil {
			t.Fatalf("call %s's result is not one JSON envelope (%v): %q", id, err, texts[0])
		}
		if i > 0 && (*env.Success || !strings.HasPrefix(env.Reason, "not executed: one tool call per turn. ")) {
			t.Fatalf("call %s's result is not its own refusal: %q", id, texts[0])
		}
	}
	return next
}

// refusalReason is the reason of a refused call's envelope.
func refusalReason(t *testing.T, text string) string {
	t.Helper()
	var env struct{ Reason string }
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		t.Fatalf("result %q: %v", text, err)
	}
	return env.Reason
}

// Two calls where the first runs: the second is refused in its own result,
// which says the first ran.
func TestTwoCallsFirstRuns(t *testing.T) {
	f := (*fixture)(nil)
	next := refusalRun(t, func(fx *fixture) { f = fx }, call("move", `{"d":1}`), call("grab", `{}`))
	if n := f.tool("move").calls.Load(); n != 1 {
		t.Fatalf("move ran %d times, want 1", n)
	}
	got := refusalReason(t, answers(next)["idb"][0])
	want := "not executed: one tool call per turn. This turn ran the response's first call (move); call grab again in a later turn if it is still needed."
	if got != want {
		t.Fatalf("refusal %q, want %q", got, want)
	}
}

// Two calls where a hook blocks the first: the refusal of the second does
// not say that the first ran.
func TestTwoCallsFirstBlocked(t *testing.T) {
	f := (*fixture)(nil)
	next := refusalRun(t, func(fx *fixture) {
		f = fx
		fx.policy.pre = func(cc *engine.CallContext) engine.PreResult {
			return engine.PreResult{Hook: "fence", Reason: "too close"}
		}
	}, call("move", `{"d":1}`), call("grab", `{}`))
	if n := f.tool("move").calls.Load(); n != 0 {
		t.Fatalf("move ran %d times, want 0 (blocked)", n)
	}
	a := answers(next)
	if !strings.Contains(a["ida"][0], "blocked by hook fence: too close") {
		t.Fatalf("first result %q, want the block", a["ida"][0])
	}
	got := refusalReason(t, a["idb"][0])
	if strings.Contains(got, " ran ") || !strings.Contains(got, "first call (move), which did not run either") {
		t.Fatalf("refusal %q says the blocked call ran, or not that it did not", got)
	}
}

// Three calls, the first with arguments that fail its schema: each extra
// call has its own refusal, none says the first ran, and the Task Notes
// say the first did not run and name the two refused calls.
func TestThreeCallsFirstInvalid(t *testing.T) {
	next := refusalRun(t, func(f *fixture) {
		f.tool("move").def.InputSchema = json.RawMessage(`{"type":"object","properties":{"d":{"type":"number"}}}`)
	}, call("move", `{"d":"far"}`), call("grab", `{}`), call("move", `{"d":2}`))
	a := answers(next)
	if !strings.Contains(a["ida"][0], `invalid arguments for move: argument \"d\" must be number, got string`) {
		t.Fatalf("first result %q, want the schema's reason", a["ida"][0])
	}
	for _, id := range []string{"idb", "idc"} {
		if got := refusalReason(t, a[id][0]); !strings.Contains(got, "which did not run either") {
			t.Fatalf("refusal of %s %q does not say the first call did not run", id, got)
		}
	}
	text := requestText(next)
	for _, want := range []string{
		`- turn 1: move: not executed: invalid arguments for move: argument "d" must be number, got string`,
		"- turn 1: 2 more calls in the response were not executed (one tool call per turn): grab, move",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the Task Notes lack %q:\n%s", want, text)
		}
	}
}
