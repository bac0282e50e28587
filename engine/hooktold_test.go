package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// hookedFixture is a fixture whose calls go through the real hook chains
// of a spec: move (a distance_m number) is clamped to the profile's 1 m by
// clamp_translation, its speed rewritten to 0.5 by slow_down when over it;
// grab (an object_name string) is noted by a post-hook, so a note in the
// Task Notes says the post chain ran on it.
func hookedFixture(t *testing.T, rs ...model.Response) (*fixture, *[]map[string]any) {
	t.Helper()
	f := newFixture(t, rs...)
	var sent []map[string]any
	mv := f.tool("move")
	mv.def.InputSchema = json.RawMessage(`{"type":"object","properties":{"distance_m":{"type":"number"},"speed":{"type":"number"}},"required":["distance_m"]}`)
	mv.fn = func(_ context.Context, args map[string]any) runlog.Envelope {
		sent = append(sent, args)
		return runlog.Envelope{Success: true, Value: map[string]any{"moved_m": args["distance_m"]}}
	}
	f.addTool("core", "grab", nil).def.InputSchema = json.RawMessage(`{"type":"object","properties":{"object_name":{"type":"string"}},"required":["object_name"]}`)
	f.spec.Hooks.Pre = []schema.PreHook{{
		Name: "clamp_translation", When: "tool.name == 'move'", Action: "clamp",
		Reason: "Translation limited to the free space in that direction.",
		Config: policies.ClampConfig{Clamp: &policies.Clamp{Arg: "distance_m", Min: "0", Max: "limits.max_translation_m"}},
	}, {
		Name: "slow_down", When: "tool.name == 'move' && 'speed' in args", Rule: "float(args.speed) > 0.5", Action: "rewrite",
		Reason: "Speed limited near people.",
		Config: policies.RewriteConfig{Rewrite: map[string]string{"speed": "0.5"}},
	}}
	f.spec.Hooks.Post = []schema.PostHook{{Name: "judged", When: "tool.name == 'grab'", Action: "note", Config: policies.NoteConfig{Note: "post chain ran on grab"}}}
	f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 1, Total: 1, Format: 5}
	f.policy = passPolicy{}
	return f, &sent
}

func (f *fixture) hookedHarness(t *testing.T) *engine.Harness {
	t.Helper()
	opts := f.options(t)
	opts.Policy = func(env engine.PolicyEnv) (engine.Policy, error) {
		return policies.NewWithActions(env, policies.NewActions())
	}
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatalf("engine.New: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// A clamp and a rewrite say what they changed in the result the model
// reads: a harness line before the result (what was asked, what was sent,
// by which hook and why), the result after it still one JSON object, and
// the Task Notes line says it too. A clamp within bounds changed nothing,
// and nothing is stated.
func TestHookChangesAreStatedInTheResult(t *testing.T) {
	f, sent := hookedFixture(t, toolResp("", call("move", `{"distance_m":3,"speed":2}`)), toolResp("", call("move", `{"distance_m":0.5}`)), toolResp("done"))
	evs := collect(f.hookedHarness(t).RunStream(t.Context(), "back up"))
	if len(*sent) != 2 || (*sent)[0]["distance_m"] != 1.0 || (*sent)[0]["speed"] != 0.5 {
		t.Fatalf("move was sent %v, want distance_m 1 and speed 0.5", *sent)
	}
	next := f.decide.requests()[1]
	var result string
	for _, m := range next.Messages {
		if m.Role == model.RoleTool {
			result = m.Text()
		}
	}
	line, rest, ok := strings.Cut(result, "\n")
	want := "harness: move ran with arguments changed by its hooks: distance_m 3 → 1 by clamp hook clamp_translation (Translation limited to the free space in that direction.); " +
		"speed 2 → 0.5 by rewrite hook slow_down (Speed limited near people.). The result below is of the call as sent."
	if !ok || line != want {
		t.Fatalf("the result the model reads starts %q, want the line %q", result, want)
	}
	if !json.Valid([]byte(rest)) || !strings.Contains(rest, `"moved_m":1`) {
		t.Fatalf("after the harness line, %q is not the result as one JSON object", rest)
	}
	notes := "- turn 1: move: ok (clamped distance_m 3 → 1 by clamp_translation; rewrote speed 2 → 0.5 by slow_down)"
	if !strings.Contains(requestText(next), notes) {
		t.Fatalf("the Task Notes lack %q:\n%s", notes, requestText(next))
	}
	var texts []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult {
			texts = append(texts, ev.Text)
		}
	}
	if len(texts) != 2 || !strings.HasPrefix(texts[0], "harness: move ran with arguments changed") || texts[1] != "" {
		t.Fatalf("the run log's results say %q, want the harness line on the first only", texts)
	}
	last := f.decide.requests()[2]
	if m := last.Messages[len(last.Messages)-3]; m.Role != model.RoleTool || !json.Valid([]byte(m.Text())) {
		t.Fatalf("the result of the unchanged call is %q, want the bare JSON result", m.Text())
	}
	if text := requestText(last); !strings.Contains(text, "- turn 2: move: ok<") {
		t.Fatalf("the unchanged call is not noted plainly ok:\n%s", text)
	}
}

// A wrong-typed argument is checked against the tool's inputSchema before
// any hook: the model reads which argument and what type was expected, as
// a malformed call (failure_budget.format), never a hook's block; no hook
// sees the call.
func TestSchemaIsCheckedBeforeHooks(t *testing.T) {
	f, sent := hookedFixture(t, toolResp("", call("move", `{"distance_m":"3"}`)), toolResp("done"))
	evs := collect(f.hookedHarness(t).RunStream(t.Context(), "back up"))
	if len(*sent) != 0 {
		t.Fatalf("move ran with %v", *sent)
	}
	var res *runlog.Envelope
	for _, ev := range evs {
		switch ev.Kind {
		case runlog.EventHook:
			t.Errorf("hook %s saw a call whose arguments fail the schema (%s)", ev.Hook.Hook, ev.Hook.Reason)
		case runlog.EventToolResult:
			res = ev.Result
		case runlog.EventDone:
			if ev.Done.Reason != runlog.DoneFinal {
				t.Errorf("task ended %+v; a malformed call does not spend failure_budget.total 1", ev.Done)
			}
		}
	}
	if res == nil || !strings.HasPrefix(res.Reason, `invalid arguments for move: argument "distance_m" must be number, got string`) ||
		!strings.Contains(res.Reason, "counts against the budget for malformed calls") || strings.Contains(res.Reason, "hook") {
		t.Fatalf("result %+v, want the schema's reason as a malformed call", res)
	}
}

// A call that never reached its tool is never judged: grab with a number
// for its name fails the schema, and no post-hook runs on it (no verdict,
// no note); the Task Notes say it was not executed, and why.
func TestCallNeverRunIsNeverJudged(t *testing.T) {
	f, _ := hookedFixture(t, toolResp("", call("grab", `{"object_name":5}`)), toolResp("", call("grab", `{"object_name":"mug"}`)), toolResp("done"))
	h := f.hookedHarness(t)
	evs := collect(h.RunStream(t.Context(), "grab the mug"))
	for _, ev := range evs {
		if ev.Turn == 1 && (ev.Kind == runlog.EventEvaluation || ev.Kind == runlog.EventHook) {
			t.Errorf("turn 1's call never ran, yet a %s event: %+v", ev.Kind, ev)
		}
		if ev.Kind == runlog.EventToolResult && ev.Turn == 1 && ev.Result.Verdict != nil {
			t.Errorf("turn 1's call never ran, yet has a verdict %+v", ev.Result.Verdict)
		}
	}
	notes, ok := h.LastTaskNotes()
	if !ok {
		t.Fatal("no Task Notes")
	}
	var lines []string
	for _, e := range notes.Timeline {
		lines = append(lines, e.Text)
	}
	want := []string{
		`grab: not executed: invalid arguments for grab: argument "object_name" must be string, got number`,
		"post chain ran on grab",
		"grab: ok",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Task Notes timeline:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// Arguments a hook rewrote are checked again as the tool receives them:
// a rewrite that breaks the schema keeps the call from running, says which
// hook, and the call is not judged (it is the spec's mistake, not the
// model's format).
func TestRewriteBreakingTheSchemaNeverRuns(t *testing.T) {
	f, sent := hookedFixture(t, toolResp("", call("move", `{"distance_m":0.5}`)), toolResp("done"))
	f.spec.Hooks.Pre = []schema.PreHook{{Name: "garble", When: "tool.name == 'move'", Action: "rewrite",
		Config: policies.RewriteConfig{Rewrite: map[string]string{"distance_m": "'far'"}}}}
	f.spec.Hooks.Post = []schema.PostHook{{Name: "judged", When: "true", Action: "note", Config: policies.NoteConfig{Note: "post chain ran"}}}
	f.spec.Safety.FailureBudget.Total = 5
	h := f.hookedHarness(t)
	evs := collect(h.RunStream(t.Context(), "inch forward"))
	if len(*sent) != 0 {
		t.Fatalf("move ran with %v", *sent)
	}
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult {
			want := `not executed: the arguments the hooks (garble) gave move fail its inputSchema: invalid arguments for move: argument "distance_m" must be number, got string`
			if ev.Result.Reason != want {
				t.Errorf("result %q, want %q", ev.Result.Reason, want)
			}
		}
	}
	notes, _ := h.LastTaskNotes()
	for _, e := range notes.Timeline {
		if e.Text == "post chain ran" {
			t.Fatalf("the post chain ran on a call that never ran: %+v", notes.Timeline)
		}
	}
}
