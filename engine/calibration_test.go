package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// inflating answers as the model does and reports input tokens at 1.5 times
// the harness's estimate of each request, like a provider whose tokenizer
// counts more than four characters a token.
type inflating struct {
	inner    model.Model
	estimate *int
}

func (m inflating) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	resp, err := m.inner.Generate(ctx, req)
	resp.Usage.InputTokens = *m.estimate * 3 / 2
	resp.Usage.OutputTokens = 10
	return resp, err
}

// The budget is kept in the provider's own count: over a long task with a
// provider counting 1.5 times the estimate, no request after the first (the
// first one calibrates) reaches context_window - reserve_tokens as the
// provider counts it. Without calibration the estimate alone would let
// requests grow to 1.5 times the budget.
func TestBudgetInTheProvidersCount(t *testing.T) {
	const turns = 400
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 6000, 1000
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 4, 1500, 600
	c.MaxInputChars, c.MaxSummaryRounds = 4000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Name: "summariser"}
	f.compact = &recorder{inner: &factKeeper{}, name: "summariser"}
	f.tool("move").fn = func(context.Context, map[string]any) engine.Envelope {
		return engine.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 120)}}
	}
	var estimate int
	decide := f.decide
	f.decideModel = inflating{inner: decide, estimate: &estimate}
	limit := c.ContextWindow - c.ReserveTokens
	requests, compactions := 0, 0
	var done *engine.Report
	for ev := range f.harness(t).RunStream(t.Context(), "Patrol the hall.") {
		switch ev.Kind {
		case engine.EventContext:
			estimate = ev.Tokens.Total
			requests++
			if counted := estimate * 3 / 2; requests > 1 && counted >= limit {
				t.Fatalf("request %d: %d tokens as the provider counts (estimate %d) reach context_window - reserve_tokens (%d)",
					requests, counted, estimate, limit)
			}
		case engine.EventCompaction:
			compactions++
		case engine.EventDone:
			done = ev.Done
		}
	}
	if done == nil || done.Reason != engine.DoneFinal {
		t.Fatalf("the task did not finish: %+v", done)
	}
	if compactions == 0 {
		t.Fatal("no compaction: the test never approached the budget")
	}
	if done.Usage.InputTokens == 0 || done.Usage.OutputTokens != 10*requests {
		t.Fatalf("task usage %+v, want the sum of %d calls", done.Usage, requests)
	}
}
