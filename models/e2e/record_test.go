package e2e_test

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
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

	c, err := components.Default(components.Options{})
	must(t, err)
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: c.Descriptors()})
	if len(diags) > 0 || spec == nil {
		t.Fatalf("household spec: %v", diags)
	}
	brain, err := script.New(spec.Model, spec.Dir)
	must(t, err)
	w := openaiWire()
	srv := &server{t: t, wire: w, brain: brain}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	t.Setenv("THEA_E2E_KEY", key)
	spec.Model = schema.Model{Provider: w.provider, Name: "e2e-model", BaseURL: hs.URL + "/v1", APIKeyEnv: "THEA_E2E_KEY",
		MaxTokens: 1024, Timeout: schema.Duration(testtime.Scale(20 * time.Second)), Retries: 1}
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
