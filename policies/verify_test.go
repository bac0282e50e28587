package policies

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// verifySpec judges pick_up by a verifier tool, called with an argument
// computed from the call, instead of the evaluator model.
func verifySpec(check string) *schema.Spec {
	s := evidenceSpec()
	c := s.Tools["pick_up"]
	c.Check = check
	c.Verify = &schema.Verify{Tool: "verify_grasp", Args: map[string]string{"object": "args.object_name", "seen": "after.held"}}
	s.Tools["pick_up"] = c
	s.Tools["verify_grasp"] = schema.ToolContract{Hidden: true}
	return s
}

func verdictResult(v map[string]any) runlog.Envelope {
	return runlog.Envelope{Success: true, Value: map[string]any{"verdict": v, "raw": "VERIFIER-RAW load 0.0 N"}}
}

func TestEvaluateVerifier(t *testing.T) {
	tests := []struct {
		name     string
		check    string
		verifier runlog.Envelope
		status   world.VerdictStatus
		source   string
		reason   string
		calls    int // verifier calls
	}{
		{name: "the verifier's success decides", verifier: verdictResult(map[string]any{"status": "success", "reason": "load 9 N", "evidence": "VERIFIER-EVIDENCE"}),
			status: world.VerdictSuccess, source: "verifier", reason: "load 9 N", calls: 1},
		{name: "the verifier's failure decides although the back-end claimed success", verifier: verdictResult(map[string]any{"status": "failure", "reason": "closed on nothing"}),
			status: world.VerdictFailure, source: "verifier", reason: "closed on nothing", calls: 1},
		{name: "a verifier that cannot judge is a failure", verifier: runlog.Failure("load cell offline"),
			status: world.VerdictFailure, source: "verifier", reason: "could not judge pick_up: load cell offline", calls: 1},
		{name: "an answer without a verdict is a failure", verifier: runlog.Envelope{Success: true, Value: map[string]any{"status": "success"}},
			status: world.VerdictFailure, source: "verifier", reason: `no "verdict" object`, calls: 1},
		{name: "an unknown status is a failure", verifier: verdictResult(map[string]any{"status": "probably"}),
			status: world.VerdictFailure, source: "verifier", reason: `status is "probably"`, calls: 1},
		{name: "a failed check decides before the verifier", check: "after.held == args.object_name",
			verifier: verdictResult(map[string]any{"status": "success"}), status: world.VerdictFailure, source: "check", calls: 0},
		{name: "a check that holds leaves the verifier the last word", check: "after.held == ''",
			verifier: verdictResult(map[string]any{"status": "failure", "reason": "slipped"}), status: world.VerdictFailure, source: "verifier", reason: "slipped", calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := verifySpec(tt.check)
			tools := &fakeTools{results: map[string]runlog.Envelope{
				"evidence":     evidence(map[string]any{"run_id": "r1", "held": ""}),
				"verify_grasp": tt.verifier,
			}}
			m := &fakeModel{text: `{"status":"success","confidence":1}`}
			p := newPolicy(t, s, tools, m, nil)
			var evs []runlog.Event
			res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
			v := res.Verdict
			if v == nil || v.Status != tt.status || v.Source != tt.source || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("verdict = %+v, want %s from %s with %q", v, tt.status, tt.source, tt.reason)
			}
			if len(m.reqs) != 0 {
				t.Error("the evaluator model was asked although the contract names a verifier")
			}
			if n := tools.count("verify_grasp"); n != tt.calls {
				t.Fatalf("verifier called %d times, want %d", n, tt.calls)
			}
			if tt.calls > 0 {
				for _, c := range tools.calls {
					if c.name == "verify_grasp" && (c.args["object"] != "mug" || c.args["seen"] != "") {
						t.Errorf("verifier args = %v, want object mug and seen from the evidence", c.args)
					}
				}
			}
			// What returns to the engine, and so may reach the acting model,
			// carries neither the verifier's evidence nor its raw result.
			b, _ := json.Marshal(v)
			for _, secret := range []string{"VERIFIER-EVIDENCE", "VERIFIER-RAW", "SECRET-PC"} {
				if strings.Contains(string(b), secret) {
					t.Errorf("the verdict leaks %s: %s", secret, b)
				}
			}
		})
	}
}

// A verifier that quotes the post-condition has it scrubbed like any judge.
func TestVerifierReasonScrubbed(t *testing.T) {
	s := verifySpec("")
	tools := &fakeTools{results: map[string]runlog.Envelope{
		"evidence":     evidence(map[string]any{"run_id": "r1"}),
		"verify_grasp": verdictResult(map[string]any{"status": "failure", "reason": "not true that SECRET-PC: the object is held"}),
	}}
	p := newPolicy(t, s, tools, &fakeModel{}, nil)
	var evs []runlog.Event
	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
	if res.Verdict == nil || strings.Contains(res.Verdict.Reason, "SECRET-PC") {
		t.Fatalf("verdict = %+v, want the post-condition scrubbed", res.Verdict)
	}
}

// A verifier answering process is bounded like the model: only for a
// segmented tool, at most max_segments times in a row.
func TestVerifierProcessBounded(t *testing.T) {
	s := verifySpec("")
	tools := &fakeTools{results: map[string]runlog.Envelope{
		"evidence":     evidence(map[string]any{"run_id": "r1", "held": ""}),
		"verify_grasp": verdictResult(map[string]any{"status": "process", "reason": "still closing"}),
	}}
	p := newPolicy(t, s, tools, &fakeModel{}, nil)
	var evs []runlog.Event
	res := p.Post(t.Context(), callCtx(s, "pick_up", map[string]any{"object_name": "mug"}, &evs), executed())
	if res.Verdict == nil || res.Verdict.Status != world.VerdictFailure || !strings.Contains(res.Verdict.Reason, "not a segmented tool") {
		t.Fatalf("verdict = %+v, want a failure: pick_up is not segmented", res.Verdict)
	}
}
