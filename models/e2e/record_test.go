package e2e_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

// Recording every model call keeps the evaluator's answer for the
// integrator and away from the acting model: the evaluator's private text
// is in the run log's model_call event, in no decide or consolidate request.
func TestEvaluatorAnswerRecordedNotSent(t *testing.T) {
	const private = "EVALUATOR-ONLY-5531"
	path := testutil.ExampleCopy(t, filepath.Join("..", "..", "examples", "household", "spec.cue"))
	ep := filepath.Join(filepath.Dir(path), "episode.yaml")
	b, err := os.ReadFile(ep)
	must(t, err)
	const verdict = "- purpose: evaluate\n  text: >-\n    {\"status\""
	if !strings.Contains(string(b), verdict) {
		t.Fatal("the household episode's evaluate entry changed: update this test")
	}
	b = []byte(strings.Replace(string(b), verdict, "- purpose: evaluate\n  text: >-\n    My private notes: "+private+". {\"status\"", 1))
	must(t, os.WriteFile(ep, b, 0o644))

	spec, brain := loadHousehold(t, path)
	srv := overWire(t, spec, openaiWire(), brain)
	runs := t.TempDir()
	h := newHarness(t, spec, runs)
	rep, err := h.Run(t.Context(), "Put the mug in the top drawer")
	if err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	srv.mu.Lock()
	for i, body := range srv.bodies {
		if srv.purposes[i] != model.PurposeEvaluate && strings.Contains(string(body), private) {
			t.Errorf("request %d (%s) carries the evaluator's private text", i+1, srv.purposes[i])
		}
	}
	srv.mu.Unlock()

	f, err := os.Open(filepath.Join(rep.RunDir, "events.jsonl"))
	must(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	recorded := map[model.Purpose]int{}
	for sc.Scan() {
		var ev runlog.Event
		must(t, json.Unmarshal(sc.Bytes(), &ev))
		if ev.Kind == runlog.EventModelCall {
			recorded[ev.ModelCall.Purpose]++
			if ev.ModelCall.Model != "openai/e2e-model" {
				t.Errorf("model_call names model %q", ev.ModelCall.Model)
			}
		}
		has := strings.Contains(sc.Text(), private)
		if want := ev.Kind == runlog.EventModelCall && ev.ModelCall.Purpose == model.PurposeEvaluate; has != want {
			t.Errorf("private text in a %s event: %v, want %v", ev.Kind, has, want)
		}
	}
	must(t, sc.Err())
	if recorded[model.PurposeDecide] != 10 || recorded[model.PurposeEvaluate] != 1 || recorded[model.PurposeConsolidate] != 1 {
		t.Errorf("model calls recorded by purpose: %v", recorded)
	}
}
