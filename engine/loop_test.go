package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Before every model call, in order: Task Notes snapshot, a new
// Observation, the Scene Graph Brief, compaction; then the decision.
func TestOrderBeforeEveryModelCall(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("move", `{"d":1}`)),
		toolResp("", call("move", `{"d":2}`)),
		toolResp("done"))
	f.wrap = true
	f.spec.Context.Compaction.Enabled = true
	// A budget of 600 tokens: the first request is below it; every later
	// one, with a long tool result, is due, and fits once compacted.
	f.spec.Context.Compaction.ContextWindow = 20000
	f.spec.Context.Compaction.ReserveTokens = 19400
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 250)}}
	}
	f.spec.Context.Compaction.KeepRecentTurns = 0
	f.spec.Context.Compaction.KeepRecentTokens = 0
	f.spec.Context.Compaction.CompactionModel = &schema.Model{Provider: "test", Config: testModel{Name: "summariser"}}
	f.compact = &recorder{inner: mustScript(t, compactEntries(10)...), name: "summariser", log: f.log}
	rep, err := f.harness(t).Run(t.Context(), "tidy up")
	if err != nil || rep.Reason != runlog.DoneFinal || rep.Text != "done" {
		t.Fatalf("Run = %+v, %v", rep, err)
	}
	var got []string
	for _, e := range f.log.list() {
		if e == "tool:move" || e == "stage:execute" || e == "stage:record" {
			continue
		}
		got = append(got, e)
	}
	turn := func(compacts bool) []string {
		s := []string{"stage:task_notes", "stage:observe", "tool:observe", "stage:scene_brief", "stage:compact"}
		if compacts {
			s = append(s, "summariser:compact")
		}
		return append(s, "model:decide") // the fixed turn follows the context stages
	}
	// Turn 1 holds only the instruction and the current notes (never
	// summarised): nothing to compact. Later turns compact the older prefix.
	want := slices.Concat(turn(false), turn(true), turn(true))
	if !slices.Equal(got, want) {
		t.Fatalf("effects order\n got %v\nwant %v", got, want)
	}
	reqs := f.decide.requests()
	for i, req := range reqs {
		txt := requestText(req)
		last := req.Messages[len(req.Messages)-1].Text()
		if !strings.Contains(last, "Scene Graph Brief") || !strings.Contains(last, "Observation (turn ") {
			t.Errorf("request %d: refreshed context is not the last message: %q", i, last)
		}
		if i > 0 && !strings.Contains(txt, "turn "+itoa(i)+": move: ok") {
			t.Errorf("request %d: the notes snapshot lacks the previous tool result:\n%s", i, txt)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func mustScript(t *testing.T, es ...script.Entry) model.Model {
	t.Helper()
	m, err := script.FromEntries("test script", es...)
	must(t, err)
	return m
}

func compactEntries(n int) []script.Entry {
	out := make([]script.Entry, n)
	for i := range out {
		out[i] = script.Entry{Purpose: model.PurposeCompact, Text: "summary"}
	}
	return out
}

func TestFinalAnswerEndsTaskWithOneDone(t *testing.T) {
	f := newFixture(t, toolResp("I see a mug"))
	evs := collect(f.harness(t).RunStream(t.Context(), "look"))
	if countDone(evs) != 1 || evs[len(evs)-1].Kind != runlog.EventDone {
		t.Fatalf("events %v: want exactly one done, last", kinds(evs))
	}
	d := evs[len(evs)-1].Done
	if d.Reason != runlog.DoneFinal || d.Text != "I see a mug" || d.Turns != 1 {
		t.Fatalf("done = %+v", d)
	}
	if evs[0].Kind != runlog.EventTaskStart {
		t.Fatalf("first event %s, want task_start", evs[0].Kind)
	}
}

func TestOneDonePerStreamOnErrorAndCancel(t *testing.T) {
	cases := []struct {
		name   string
		opts   func(cancel context.CancelFunc) []engine.RunOption
		resps  []model.Response
		reason runlog.DoneReason
		cancel bool
	}{
		{name: "script exhausted is an error", resps: []model.Response{toolResp("", call("move", `{}`))}, reason: runlog.DoneError},
		{name: "should_cancel", reason: runlog.DoneCancelled, resps: []model.Response{toolResp("", call("move", `{}`)), toolResp("x")},
			opts: func(context.CancelFunc) []engine.RunOption {
				n := 0
				return []engine.RunOption{engine.WithShouldCancel(func() bool { n++; return n > 2 })}
			}},
		{name: "context cancelled", reason: runlog.DoneCancelled, cancel: true, resps: []model.Response{toolResp("", call("move", `{}`)), toolResp("x")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.resps...)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tc.cancel {
				f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope { cancel(); return runlog.Failure("interrupted") }
			}
			var opts []engine.RunOption
			if tc.opts != nil {
				opts = tc.opts(cancel)
			}
			evs := collect(f.harness(t).RunStream(ctx, "go", opts...))
			if countDone(evs) != 1 || evs[len(evs)-1].Kind != runlog.EventDone {
				t.Fatalf("events %v: want exactly one done, last", kinds(evs))
			}
			if got := evs[len(evs)-1].Done.Reason; got != tc.reason {
				t.Fatalf("reason %s, want %s (%+v)", got, tc.reason, evs[len(evs)-1].Done)
			}
		})
	}
}

func TestEarlyBreakStopsTheStream(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("", call("move", `{}`)), toolResp("done"))
	h := f.harness(t)
	n := 0
	for ev := range h.RunStream(t.Context(), "go") {
		n++
		if ev.Kind == runlog.EventModel {
			break // the runtime panics if the engine yields again
		}
	}
	if f.tool("move").calls.Load() != 0 {
		t.Fatalf("the tool ran after the consumer stopped")
	}
	// The session is free again and answers the next task.
	if _, err := h.Run(t.Context(), "again"); err != nil && errors.Is(err, engine.ErrBusy) {
		t.Fatalf("session still busy after early break: %v", err)
	}
}

func TestExecuteAnswersEveryCall(t *testing.T) {
	f := newFixture(t,
		toolResp("two at once", call("move", `{"d":1}`), call("move", `{"d":2}`)),
		toolResp("", call("fly", `{}`)),
		toolResp("", call("move", `not json`)),
		toolResp("", call("observe", `{}`)), // hidden: not model-selectable
		toolResp("finished"))
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "go"))
	var results []*runlog.Envelope
	for _, e := range evs {
		if e.Kind == runlog.EventToolResult {
			results = append(results, e.Result)
		}
	}
	if len(results) != 4 {
		t.Fatalf("got %d tool results, want 4 (one a turn): %v", len(results), kinds(evs))
	}
	wants := []struct {
		ok     bool
		reason string
	}{{true, ""}, {false, `unknown tool "fly"; available tools: move`}, {false, "invalid arguments"}, {false, `unknown tool "observe"`}}
	for i, w := range wants {
		if results[i].Success != w.ok || !strings.Contains(results[i].Reason, w.reason) {
			t.Errorf("result %d = %+v, want ok=%v reason containing %q", i, results[i], w.ok, w.reason)
		}
	}
	if n := f.tool("move").calls.Load(); n != 1 {
		t.Fatalf("move ran %d times, want 1 (extra calls never run)", n)
	}
	// Every call has its result in the next request, by id.
	last := f.decide.requests()[4]
	calls, answered := 0, map[string]bool{}
	for _, m := range last.Messages {
		for _, c := range m.ToolCalls {
			calls++
			answered[c.ID] = false
		}
		if m.Role == model.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	for id, ok := range answered {
		if !ok {
			t.Errorf("call %s has no result in the request", id)
		}
	}
	// The refused extra call stays in the transcript with its own result.
	if calls != 5 {
		t.Fatalf("%d calls in the transcript, want 5", calls)
	}
	refused := false
	for _, m := range last.Messages {
		refused = refused || m.Role == model.RoleTool && strings.Contains(m.Text(), `"reason":"not executed: one tool call per turn`)
	}
	if !refused {
		t.Fatal("the refused extra call is not answered in the next request")
	}
}

// A blocked call never runs and returns through the ordinary result channel;
// a post-hook verdict's status and reason reach the model, its evidence and
// the post-condition never do.
func TestHooksBlockAndVerdictWithoutPostCondition(t *testing.T) {
	const secret = "POSTCONDITION-the mug is in the drawer"
	f := newFixture(t, toolResp("", call("move", `{"d":5}`)), toolResp("", call("grasp", `{}`)), toolResp("ok"))
	f.addTool("core", "grasp", nil)
	f.spec.Tools["grasp"] = schema.ToolContract{PostCondition: secret, Description: "Grasp carefully."}
	f.policy.pre = func(cc *engine.CallContext) engine.PreResult {
		if cc.Call.Tool == "move" {
			v := runlog.Decision{Hook: "clearance", Phase: "pre", Decision: "block", Reason: "too close"}
			cc.Emit(runlog.Event{Kind: runlog.EventHook, Hook: &v})
			return engine.PreResult{Allowed: false, Hook: "clearance", Reason: "too close", Decisions: []runlog.Decision{v}}
		}
		return engine.PreResult{Allowed: true, Args: cc.Call.Args}
	}
	f.policy.post = func(cc *engine.CallContext, _ *runlog.Envelope) engine.PostResult {
		if cc.Tool.Contract.PostCondition != secret {
			t.Errorf("post hook sees contract %+v", cc.Tool.Contract)
		}
		v := &world.Verdict{Status: "failure", Reason: "mug still on table", Evidence: "wrist camera"}
		cc.Emit(runlog.Event{Kind: runlog.EventEvaluation, Verdict: v})
		return engine.PostResult{Verdict: v}
	}
	evs := collect(f.harness(t).RunStream(t.Context(), "stow the mug"))
	if f.tool("move").calls.Load() != 0 {
		t.Fatal("a blocked call ran")
	}
	if !slices.Contains(kinds(evs), runlog.EventHook) || !slices.Contains(kinds(evs), runlog.EventEvaluation) {
		t.Fatalf("missing hook/evaluation events: %v", kinds(evs))
	}
	reqs := f.decide.requests()
	if !strings.Contains(requestText(reqs[1]), "blocked by hook clearance: too close") {
		t.Fatalf("block reason not in the next request")
	}
	final := requestText(reqs[2])
	if !strings.Contains(final, `"verdict":{"status":"failure","reason":"mug still on table"}`) {
		t.Fatalf("verdict's status and reason not visible to the model:\n%s", final)
	}
	// The evidence is the evaluator's, as the post-condition is: it stays
	// in the run log (the evaluation event) and never reaches the model.
	for i, r := range reqs {
		if strings.Contains(requestText(r), "wrist camera") {
			t.Fatalf("request %d contains the verdict's evidence:\n%s", i, requestText(r))
		}
	}
	if !strings.Contains(final, "Grasp carefully.") {
		t.Fatal("contract description addendum missing from the tool definition")
	}
	for i, r := range reqs {
		if strings.Contains(requestText(r), "POSTCONDITION") {
			t.Fatalf("request %d contains the post-condition", i)
		}
	}
}

func TestHarnessTerminations(t *testing.T) {
	fail := func(context.Context, map[string]any) runlog.Envelope { return runlog.Failure("stuck") }
	repeat := func(n int, args string) []model.Response {
		var rs []model.Response
		for i := range n {
			a := args
			if a == "" {
				a = `{"i":` + itoa(i) + `}`
			}
			rs = append(rs, toolResp("", call("move", a)))
		}
		return rs
	}
	cases := []struct {
		name   string
		resps  []model.Response
		setup  func(f *fixture)
		reason runlog.DoneReason
		turns  int
	}{
		{"max turns", repeat(10, ""), func(f *fixture) { f.spec.Safety.MaxTurns = 3 }, runlog.DoneMaxTurns, 3},
		{"consecutive failures", repeat(10, ""), func(f *fixture) {
			f.tool("move").fn = fail
			f.spec.Safety.FailureBudget.Consecutive = 2
		}, runlog.DoneFailureBudget, 2},
		{"total failures", repeat(10, ""), func(f *fixture) {
			n := 0
			f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
				n++
				if n%2 == 0 {
					return runlog.Envelope{Success: true}
				}
				return runlog.Failure("flaky")
			}
			f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 5, Total: 3}
		}, runlog.DoneFailureBudget, 5},
		{"failure verdict counts", repeat(10, ""), func(f *fixture) {
			f.policy.post = func(*engine.CallContext, *runlog.Envelope) engine.PostResult {
				return engine.PostResult{Verdict: &world.Verdict{Status: "failure"}}
			}
			f.spec.Safety.FailureBudget.Consecutive = 3
		}, runlog.DoneFailureBudget, 3},
		{"loop detected", repeat(10, `{"d":1}`), func(f *fixture) {
			f.spec.Safety.LoopDetection = schema.LoopDetection{Enabled: true, Repeats: 4}
		}, runlog.DoneLoopDetected, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.resps...)
			tc.setup(f)
			rep, err := f.harness(t).Run(t.Context(), "go")
			if err != nil || rep.Reason != tc.reason || rep.Turns != tc.turns {
				t.Fatalf("Run = %+v, %v; want %s after %d turns", rep, err, tc.reason, tc.turns)
			}
			if !strings.Contains(rep.Text, "Task ended by the harness") {
				t.Fatalf("report text %q", rep.Text)
			}
		})
	}
}

// An unknown tool's reason names an aliased tool by its alias too: a model
// behind OpenAI's or Anthropic's API only ever saw the alias.
func TestUnknownToolNamesAliases(t *testing.T) {
	f := newFixture(t, toolResp("", call("fly", `{}`)), toolResp("finished"))
	f.addTool("core", "arm.status", nil)
	h := f.harness(t)
	for _, e := range collect(h.RunStream(t.Context(), "go")) {
		if e.Kind == runlog.EventToolResult {
			want := `unknown tool "fly"; available tools: arm.status (as arm_status), move`
			if e.Result.Success || !strings.Contains(e.Result.Reason, want) {
				t.Fatalf("reason %q, want it to contain %q", e.Result.Reason, want)
			}
			return
		}
	}
	t.Fatal("no tool result")
}
