package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Every model call of the session is a model_call event: each compaction
// round's summary call with its response, and a decide call that failed with
// its error, before the done event. Each names the model that answered.
func TestEveryModelCallIsRecorded(t *testing.T) {
	const turns = 40
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 6000, 1000
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 4, 1500, 600
	c.MaxInputChars, c.MaxSummaryRounds = 4000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Name: "summariser"}
	f.compact = &recorder{inner: &factKeeper{}, name: "summariser"}
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 120)}}
	}
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "FACT: the spare key is under the blue mat. Patrol the hall."))
	rounds, calls := 0, map[model.Purpose]int{}
	for _, ev := range evs {
		switch ev.Kind {
		case runlog.EventCompaction:
			rounds += ev.Compaction.Rounds
		case runlog.EventModelCall:
			mc := ev.ModelCall
			calls[mc.Purpose]++
			want := "test/main"
			if mc.Purpose == model.PurposeCompact {
				want = "test/summariser"
				if mc.Text == "" {
					t.Errorf("turn %d: a compaction call recorded without its summary", ev.Turn)
				}
			}
			if mc.Model != want || ev.Text != string(mc.Purpose) {
				t.Errorf("turn %d: model_call %q by %q, want by %q", ev.Turn, ev.Text, mc.Model, want)
			}
		}
	}
	if rounds == 0 || calls[model.PurposeCompact] != rounds || calls[model.PurposeDecide] != len(f.decide.requests()) {
		t.Errorf("recorded calls %v for %d compaction rounds and %d decide requests", calls, rounds, len(f.decide.requests()))
	}

	// The script has nothing left: the next task's decide call fails.
	evs = collect(h.RunStream(t.Context(), "once more"))
	var failed *runlog.ModelCall
	for i, ev := range evs {
		if ev.Kind == runlog.EventModelCall {
			failed = ev.ModelCall
			if i+1 >= len(evs) || evs[len(evs)-1].Kind != runlog.EventDone {
				t.Error("the failed call is not recorded before the done event")
			}
		}
	}
	if failed == nil || failed.Purpose != model.PurposeDecide || !strings.Contains(failed.Error, "no decide response left") || failed.Text != "" {
		t.Errorf("failed call recorded as %+v", failed)
	}
}
