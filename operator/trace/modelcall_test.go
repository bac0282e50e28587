package trace_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
)

// A recorded model call (an evaluator's answer, a consolidation proposal)
// is for the run log: neither terminal renderer prints it, verbose or not.
func TestModelCallsAreNotPrinted(t *testing.T) {
	const private = "post-condition judged: EVALUATOR-ONLY"
	evs := []runlog.Event{
		{Kind: runlog.EventModelCall, Time: time.Unix(0, 0), Turn: 3, Text: "evaluate",
			ModelCall: &runlog.ModelCall{Purpose: model.PurposeEvaluate, Text: private, Reasoning: private}},
		{Kind: runlog.EventModelCall, Time: time.Unix(0, 0), Turn: 3, Text: "consolidate",
			ModelCall: &runlog.ModelCall{Purpose: model.PurposeConsolidate, Text: private}},
	}
	for _, verbose := range []bool{false, true} {
		var plain, live bytes.Buffer
		w, l := trace.New(&plain, verbose), trace.NewLive(&live, verbose)
		for _, ev := range evs {
			if err := w.Write(ev); err != nil {
				t.Fatal(err)
			}
			if err := l.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"trace": plain.String(), "live view": live.String()} {
			if strings.Contains(out, "EVALUATOR-ONLY") || strings.Contains(out, "model_call") {
				t.Errorf("%s (verbose %v) prints a model call: %q", name, verbose, out)
			}
		}
	}
}
