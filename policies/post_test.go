package policies

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// evidenceSpec adds a run-id evidence tool to the household spec.
func evidenceSpec() *schema.Spec {
	s := householdSpec()
	s.Evaluator.Evidence = "evidence"
	s.Evaluator.RunIDArg = "run_id"
	return s
}

func evidence(obs map[string]any) runlog.Envelope {
	return runlog.Envelope{Success: true, Value: obs,
		Images: []world.Image{{Camera: "wrist", MIME: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}
}

// executed is a completed call's envelope whose back-end claims success.
func executed() *runlog.Envelope {
	return &runlog.Envelope{Success: true, RunID: "r1", Value: map[string]any{"message": "BACKEND-CLAIM grasp succeeded"}}
}

func TestEvaluateCheck(t *testing.T) {
	tests := []struct {
		name   string
		check  string
		held   string
		args   map[string]any
		status string
		reason string
	}{
		{name: "check holds", held: "", args: map[string]any{"target": "table"}, status: "success"},
		{name: "check fails", held: "cup", args: map[string]any{"target": "table"}, status: "failure",
			reason: "does not satisfy the check of place"},
		{name: "check errors at run time", check: "after.state.weight > 1", args: map[string]any{"target": "table"},
			status: "failure", reason: "not confirmed: after.state is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := evidenceSpec()
			if tt.check != "" {
				c := s.Tools["place"]
				c.Check = tt.check
				s.Tools["place"] = c
			}
			tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1", "held": tt.held})}}
			m := &fakeModel{text: `{"status":"success","confidence":1}`}
			p := newPolicy(t, s, tools, m, nil)
			var evs []runlog.Event
			res := p.Post(t.Context(), callCtx(s, "place", tt.args, &evs), executed())
			v := res.Verdict
			if v == nil || string(v.Status) != tt.status || v.Source != "check" {
				t.Fatalf("verdict = %+v, want %s from check", v, tt.status)
			}
			if !strings.Contains(v.Reason, tt.reason) {
				t.Errorf("reason = %q, want %q", v.Reason, tt.reason)
			}
			if len(m.reqs) != 0 {
				t.Errorf("the model was asked although the contract has a check")
			}
			if len(tools.calls) != 1 || tools.calls[0].args["run_id"] != "r1" {
				t.Errorf("evidence calls = %+v, want one with run_id r1", tools.calls)
			}
		})
	}
}

func TestEvaluateModel(t *testing.T) {
	tests := []struct {
		name   string
		tool   string
		answer string
		status string
		reason string
	}{
		{name: "success", tool: "pick_up", status: "success",
			answer: `{"status": "success", "reason": "", "evidence": "mug in gripper", "confidence": 0.9}`},
		{name: "fenced success", tool: "pick_up", status: "success",
			answer: "```json\n{\"status\": \"Success\", \"evidence\": \"mug in gripper\", \"confidence\": 0.8}\n```"},
		{name: "failure with reason", tool: "pick_up", status: "failure", reason: "the mug is still on the table",
			answer: `{"status": "failure", "reason": "the mug is still on the table", "confidence": 0.9}`},
		{name: "failure without reason", tool: "pick_up", status: "failure", reason: "gave no reason",
			answer: `{"status": "failure", "confidence": 0.9}`},
		{name: "process refused for a tool that is not segmented", tool: "pick_up", status: "failure",
			reason: "pick_up is not a segmented tool", answer: `{"status": "process", "confidence": 0.9}`},
		{name: "process accepted for a segmented tool", tool: "open", status: "process",
			answer: `{"status": "process", "evidence": "door ajar", "confidence": 0.9}`},
		{name: "malformed JSON", tool: "pick_up", status: "failure", reason: "malformed verdict",
			answer: `{"status": "success", "confidence": }`},
		{name: "no JSON at all", tool: "pick_up", status: "failure", reason: "malformed verdict", answer: "looks fine to me"},
		{name: "unknown status", tool: "pick_up", status: "failure", reason: `status "done"`,
			answer: `{"status": "done", "confidence": 0.9}`},
		{name: "confidence out of range", tool: "pick_up", status: "failure", reason: "outside 0..1",
			answer: `{"status": "success", "confidence": 7}`},
		{name: "low confidence success", tool: "pick_up", status: "failure", reason: "below the threshold 0.60",
			answer: `{"status": "success", "confidence": 0.4}`},
		{name: "missing confidence", tool: "pick_up", status: "failure", reason: "confidence 0.00",
			answer: `{"status": "success"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := evidenceSpec()
			tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1", "held": "mug"})}}
			m := &fakeModel{text: tt.answer}
			p := newPolicy(t, s, tools, m, nil)
			var evs []runlog.Event
			cc := callCtx(s, tt.tool, map[string]any{"object_name": "mug"}, &evs)
			cc.Observation = &world.Observation{Summary: "BEFORE-OBS"}
			res := p.Post(t.Context(), cc, executed())
			v := res.Verdict
			if v == nil || string(v.Status) != tt.status {
				t.Fatalf("verdict = %+v, want %s", v, tt.status)
			}
			if !strings.Contains(v.Reason, tt.reason) {
				t.Errorf("reason = %q, want it to contain %q", v.Reason, tt.reason)
			}
			if len(m.reqs) != 1 {
				t.Fatalf("model asked %d times, want 1", len(m.reqs))
			}
			checkJudgeRequest(t, m.reqs[0], tt.tool)
			var evals int
			for _, e := range evs {
				if e.Kind == runlog.EventEvaluation {
					evals++
					if e.Verdict == nil || *e.Verdict != *v {
						t.Errorf("evaluation event verdict = %+v, want %+v", e.Verdict, v)
					}
				}
			}
			if evals != 1 {
				t.Errorf("%d evaluation events, want 1", evals)
			}
		})
	}
}

// checkJudgeRequest pins what the evaluator model receives: the tool, its
// arguments, the post-condition and the evidence with its image, and nothing
// of the back-end's claim or the observation before the call.
func checkJudgeRequest(t *testing.T, req model.Request, tool string) {
	t.Helper()
	if req.Purpose != model.PurposeEvaluate || len(req.Tools) != 0 {
		t.Errorf("purpose %q with %d tools, want evaluate with none", req.Purpose, len(req.Tools))
	}
	var text strings.Builder
	images := 0
	for _, msg := range req.Messages {
		for _, part := range msg.Parts {
			text.WriteString(part.Text)
			if part.Image != nil {
				images++
			}
		}
	}
	all := text.String()
	for _, want := range []string{"Tool: " + tool, `"object_name":"mug"`, "SECRET-PC", `"held":"mug"`, `"run_id":"r1"`} {
		if !strings.Contains(all, want) {
			t.Errorf("judge request lacks %q", want)
		}
	}
	for _, never := range []string{"BACKEND-CLAIM", "BEFORE-OBS"} {
		if strings.Contains(all, never) {
			t.Errorf("judge request contains %q", never)
		}
	}
	if images != 1 {
		t.Errorf("judge request has %d images, want the evidence's 1", images)
	}
}

func TestEvaluateSegmentsBounded(t *testing.T) {
	s := evidenceSpec()
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	m := &fakeModel{text: `{"status": "process", "confidence": 0.9}`}
	p := newPolicy(t, s, tools, m, nil)
	var evs []runlog.Event
	var got []string
	for range 4 {
		res := p.Post(t.Context(), callCtx(s, "open", map[string]any{}, &evs), executed())
		got = append(got, string(res.Verdict.Status))
	}
	// max_segments is 2: a third consecutive process fails, then the count restarts.
	if want := "process process failure process"; strings.Join(got, " ") != want {
		t.Errorf("statuses = %q, want %q", strings.Join(got, " "), want)
	}
}

func TestEvaluateFailClosed(t *testing.T) {
	tests := []struct {
		name     string
		spec     func(*schema.Spec)
		evidence runlog.Envelope
		model    *fakeModel
		result   *runlog.Envelope
		source   string
		reason   string
		asked    int
	}{
		{name: "a tool that reported failure is judged failure without the model",
			result: &runlog.Envelope{Success: false, Reason: "gripper jammed", RunID: "r1"},
			source: "tool", reason: "gripper jammed"},
		{name: "no evaluator model",
			model: nil, source: "evaluator", reason: "no evaluator model"},
		{name: "model error",
			model: &fakeModel{err: errUnreachable}, source: "evaluator", reason: "unreachable", asked: 1},
		{name: "evidence tool fails",
			evidence: runlog.Failure("camera offline"), source: "evaluator", reason: "camera offline"},
		{name: "evidence for another run",
			evidence: evidence(map[string]any{"run_id": "r0"}), source: "evaluator", reason: `for run "r0", not "r1"`},
		{name: "no evidence tool configured",
			spec:   func(s *schema.Spec) { s.Evaluator.Evidence = ""; s.Observation.Tool = "" },
			source: "evaluator", reason: "no evidence tool"},
		{name: "no post-condition to judge",
			spec: func(s *schema.Spec) {
				c := s.Tools["pick_up"]
				c.PostCondition = ""
				s.Tools["pick_up"] = c
			},
			model:  &fakeModel{text: `{"status": "success", "confidence": 1}`},
			source: "evaluator", reason: "no post-condition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := evidenceSpec()
			if tt.spec != nil {
				tt.spec(s)
			}
			ev := tt.evidence
			if !ev.Success && ev.Reason == "" {
				ev = evidence(map[string]any{"run_id": "r1"})
			}
			tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": ev}}
			var p *Policy
			if tt.model != nil {
				p = newPolicy(t, s, tools, tt.model, nil)
			} else {
				p = newPolicy(t, s, tools, nil, nil)
			}
			res := tt.result
			if res == nil {
				res = executed()
			}
			var evs []runlog.Event
			out := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), res)
			v := out.Verdict
			if v == nil || v.Status != "failure" || v.Source != tt.source || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("verdict = %+v, want failure from %s with %q", v, tt.source, tt.reason)
			}
			if tt.model != nil && len(tt.model.reqs) != tt.asked {
				t.Errorf("model asked %d times, want %d", len(tt.model.reqs), tt.asked)
			}
		})
	}
}

func TestPostConditionNeverLeaves(t *testing.T) {
	s := evidenceSpec()
	s.Hooks.Post = append(s.Hooks.Post, schema.PostHook{Name: "timeline", Action: "note"})
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	for _, answer := range []string{
		`{"status": "failure", "reason": "not met: SECRET-PC: the object is held", "evidence": "SECRET-PC: the object is held is false", "confidence": 0.9}`,
		`{"status": "success", "evidence": "held", "confidence": 0.9}`,
		`garbage`,
	} {
		m := &fakeModel{text: answer}
		p := newPolicy(t, s, tools, m, nil)
		var evs []runlog.Event
		res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
		if res.Verdict == nil {
			t.Fatalf("no verdict for %s", answer)
		}
		out, err := json.Marshal(struct {
			R engine.PostResult
			E []runlog.Event
		}{res, evs})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "SECRET-PC") {
			t.Errorf("the post-condition leaked for answer %s: %s", answer, out)
		}
		if len(res.Notes) != 1 {
			t.Errorf("notes = %v, want one", res.Notes)
		}
	}
}

func TestPostSelectionAndOnce(t *testing.T) {
	s := evidenceSpec()
	s.Hooks.Post = []schema.PostHook{
		{Name: "evaluate_run", When: "'manipulation' in tool.tags", Action: "evaluate"},
		{Name: "again", Action: "evaluate"},
		{Name: "timeline", Action: "note"},
		{Name: "custom", When: "!result.success", Action: "note", Config: NoteConfig{Note: "something failed"}},
	}
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	m := &fakeModel{text: `{"status": "failure", "reason": "mug dropped", "confidence": 0.9}`}
	p := newPolicy(t, s, tools, m, nil)
	var evs []runlog.Event

	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
	if len(m.reqs) != 1 {
		t.Errorf("model asked %d times for two evaluate hooks, want exactly 1", len(m.reqs))
	}
	if strings.Join(res.Notes, "|") != "pick_up: failed: mug dropped" {
		t.Errorf("notes = %q", res.Notes)
	}

	// A failed navigation is not a manipulation: the second evaluate hook
	// (no when) judges it from the tool's own failure, without the model.
	res = p.Post(t.Context(), callCtx(s, "navigate", map[string]any{}, &evs), &runlog.Envelope{Success: false, Reason: "path blocked"})
	if res.Verdict == nil || res.Verdict.Source != "tool" || len(m.reqs) != 1 {
		t.Errorf("verdict = %+v after %d model calls", res.Verdict, len(m.reqs))
	}
	if strings.Join(res.Notes, "|") != "navigate: failed: path blocked|something failed" {
		t.Errorf("notes = %q", res.Notes)
	}
}

func TestRefusedCallsNeverEvaluated(t *testing.T) {
	s := evidenceSpec()
	s.Hooks.Pre = append(s.Hooks.Pre, schema.PreHook{Name: "no_knives", Action: "block", Rule: "args.object_name == 'knife'"})
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	m := &fakeModel{text: `{"status": "success", "confidence": 0.9}`}
	p := newPolicy(t, s, tools, m, nil)
	var evs []runlog.Event
	cc := callCtx(s, "pick_up", map[string]any{"object_name": "knife"}, &evs)
	if pre := p.Pre(t.Context(), cc); pre.Allowed {
		t.Fatalf("the knife was allowed")
	}
	// Even if an engine handed the refused call to Post, it is not evaluated.
	res := p.Post(t.Context(), cc, &runlog.Envelope{Success: false, Reason: "blocked"})
	if res.Verdict != nil || len(m.reqs) != 0 || tools.count("evidence") != 0 {
		t.Errorf("a refused call was evaluated: %+v", res)
	}
	// The next call with an id of its own is evaluated as usual.
	cc2 := callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs)
	cc2.Call.ID = "c2"
	if p.Pre(t.Context(), cc2).Allowed {
		res = p.Post(t.Context(), cc2, executed())
	}
	if res.Verdict == nil || res.Verdict.Status != "success" {
		t.Errorf("an allowed call was not evaluated: %+v", res.Verdict)
	}
}

func TestPostWhenErrors(t *testing.T) {
	s := evidenceSpec()
	s.Hooks.Post = []schema.PostHook{
		{Name: "eval", When: "args.force > 1", Action: "evaluate"},
		{Name: "timeline", When: "args.force > 1", Action: "note"},
	}
	tools := &fakeTools{results: map[string]runlog.Envelope{"evidence": evidence(map[string]any{"run_id": "r1"})}}
	m := &fakeModel{text: `{"status": "success", "confidence": 0.9}`}
	p := newPolicy(t, s, tools, m, nil)
	var evs []runlog.Event
	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"force": "hard"}, &evs), executed())
	// An evaluate hook whose selection fails still judges the call (fail
	// closed); a note hook whose selection fails is skipped with the error.
	if res.Verdict == nil || len(m.reqs) != 1 {
		t.Errorf("verdict = %+v after %d model calls, want an evaluation", res.Verdict, len(m.reqs))
	}
	if len(res.Notes) != 0 {
		t.Errorf("notes = %v, want none", res.Notes)
	}
	var last *runlog.Decision
	for _, e := range evs {
		if e.Kind == runlog.EventHook {
			last = e.Hook
		}
	}
	if last == nil || last.Decision != "skip" || !strings.Contains(last.Reason, "when failed") {
		t.Errorf("note hook decision = %+v, want a skip naming the error", last)
	}
}
