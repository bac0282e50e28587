package engine_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// counting answers as the model does and reports input tokens as a
// provider's own tokenizer would: ratio() times the harness's estimate of
// the request (which the test reads from the context event just before).
type counting struct {
	inner    model.Model
	estimate *int
	ratio    func() float64
	counted  *[]int
}

func (m counting) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	resp, err := m.inner.Generate(ctx, req)
	n := int(math.Ceil(float64(*m.estimate) * m.ratio()))
	*m.counted = append(*m.counted, n)
	resp.Usage.InputTokens = n
	resp.Usage.OutputTokens = 10
	return resp, err
}

// budgetTask is a long patrol under a small window, compacted by a fact
// keeper, its acting model counting with ratio.
func budgetTask(t *testing.T, turns int, ratio func() float64) (f *fixture, limit int, counted *[]int, estimate *int) {
	f = newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 6000, 1000
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 4, 1200, 600
	c.MaxInputChars, c.MaxSummaryRounds = 4000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Name: "summariser"}
	f.compact = &recorder{inner: &factKeeper{}, name: "summariser"}
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 120)}}
	}
	counted, estimate = &[]int{}, new(int)
	f.decideModel = counting{inner: f.decide, estimate: estimate, ratio: ratio, counted: counted}
	return f, c.ContextWindow - c.ReserveTokens, counted, estimate
}

// runBudget runs the task and fails on any request the provider counts at
// or over the budget; it returns how many compactions ran.
func runBudget(t *testing.T, f *fixture, limit int, counted *[]int, estimate *int) int {
	t.Helper()
	compactions := 0
	var done *runlog.Report
	for ev := range f.harness(t).RunStream(t.Context(), "Patrol the hall.") {
		switch ev.Kind {
		case runlog.EventContext:
			*estimate = ev.Tokens.Total
		case runlog.EventCompaction:
			if !ev.Compaction.OK {
				t.Fatalf("turn %d: compaction failed: %s", ev.Turn, ev.Compaction.Error)
			}
			compactions++
		case runlog.EventDone:
			done = ev.Done
		}
	}
	if done == nil || done.Reason != runlog.DoneFinal {
		t.Fatalf("the task did not finish: %+v", done)
	}
	for i, n := range *counted {
		if n >= limit {
			t.Fatalf("request %d: %d tokens as the provider counts them reach context_window - reserve_tokens (%d)", i+1, n, limit)
		}
	}
	return compactions
}

// The budget is kept in the provider's own count: over a long task with a
// provider counting 1.5 times the estimate, no request, the first included,
// reaches context_window - reserve_tokens as the provider counts it.
// Without calibration the estimate alone would let requests grow to 1.5
// times the budget.
func TestBudgetInTheProvidersCount(t *testing.T) {
	const turns = 400
	f, limit, counted, estimate := budgetTask(t, turns, func() float64 { return 1.5 })
	if compactions := runBudget(t, f, limit, counted, estimate); compactions == 0 {
		t.Fatal("no compaction: the test never approached the budget")
	}
	if len(*counted) != turns+1 {
		t.Fatalf("%d requests, want %d", len(*counted), turns+1)
	}
}

// A provider whose count per estimated token drifts up and down and is noisy
// (seeded): over 2,000 turns no request reaches the budget in its count. The
// ratio moves by at most 1% a request, in phases of rising, falling and
// level counts between 0.7 and 2.6, with ±2% noise on every reading.
func TestBudgetHoldsForADriftingProvider(t *testing.T) {
	const turns = 2000
	rng := rand.New(rand.NewPCG(2026, 20))
	base, n := 1.0, 0
	ratio := func() float64 {
		n++
		switch (n / 150) % 4 {
		case 0, 2:
			base *= 1 + 0.01*rng.Float64()
		case 1:
			base *= 1 - 0.01*rng.Float64()
		}
		base = min(max(base, 0.7), 2.6)
		return base * (1 + 0.04*(rng.Float64()-0.5))
	}
	f, limit, counted, estimate := budgetTask(t, turns, ratio)
	compactions := runBudget(t, f, limit, counted, estimate)
	if compactions < 20 {
		t.Fatalf("only %d compactions over %d turns: the test never pressed the budget", compactions, turns)
	}
	peak := 0
	for _, c := range *counted {
		peak = max(peak, c)
	}
	// The bound is an upper bound, not a blanket: requests still come
	// near the budget.
	if peak < limit*3/4 {
		t.Fatalf("the largest request counted %d, far below the budget %d: the bound wastes the window", peak, limit)
	}
	t.Logf("%d requests, %d compactions, largest %d of %d", len(*counted), compactions, peak, limit)
}

// Before any reading the budget holds the estimate to a safety margin: a
// first request whose estimate is under context_window - reserve_tokens,
// but not by the margin, is treated as at the budget (the compaction stage
// runs at turn 1; here it has nothing to compact yet, so it says so).
// Without the margin the first request would go out unchecked, whatever
// the provider's count of it.
func TestFirstRequestHasAMargin(t *testing.T) {
	firstEstimate := func(window int) (estimate int, compactedAtTurn1 bool) {
		f, _, _, _ := budgetTask(t, 3, func() float64 { return 1 })
		f.spec.Context.Compaction.ContextWindow = window
		for ev := range f.harness(t).RunStream(t.Context(), "Patrol the hall.") {
			switch {
			case ev.Kind == runlog.EventContext && estimate == 0:
				estimate = ev.Tokens.Total
			case ev.Kind == runlog.EventCompaction && ev.Turn == 1:
				compactedAtTurn1 = true
			}
		}
		return estimate, compactedAtTurn1
	}
	e, compacted := firstEstimate(200000)
	if compacted || e == 0 {
		t.Fatalf("with room: estimate %d, compacted at turn 1 %v", e, compacted)
	}
	// The budget is 1.2 times the first request's estimate: within it by
	// the estimate, not by the margin.
	const reserve = 1000
	if _, compacted := firstEstimate(reserve + e*12/10); !compacted {
		t.Fatalf("a first request of %d estimated tokens against a budget of %d went out without the margin", e, e*12/10)
	}
}
