package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

const budgetSpec = `name: patrol
model: {provider: openai, name: e2e-model, base_url: "%s/v1", api_key_env: THEA_E2E_KEY, max_tokens: 256, timeout: %s, retries: 0}
embodiment:
  name: rover
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets:
  core: {kind: builtin}
loop: {stages: [task_notes, compact]}
user: {channel: none}
safety: {max_turns: %d}
context:
  compaction: {enabled: true, context_window: 7000, reserve_tokens: 1000, keep_recent_turns: 3, keep_recent_tokens: 1200,
    tool_result_max_chars: 600, max_input_chars: 6000, max_summary_rounds: 3}
`

// counter is a provider behind the OpenAI wire that counts each request's
// input tokens its own way: the request body's bytes over four, times a
// ratio that drifts (seeded) from one request to the next. Decisions are a
// patrol report and a notify_user call, until the last.
type counter struct {
	t       *testing.T
	turns   int
	mu      sync.Mutex
	rng     *rand.Rand
	base    float64
	decided int
	counts  []int // each decision request's count
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		c.t.Errorf("reading request: %v", err)
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil {
		http.Error(w, `{"error":{"message":"not JSON"}}`, 400)
		return
	}
	c.mu.Lock()
	// Rising, falling and level phases, 2% a request at most, ±2% noise.
	switch (len(c.counts) / 25) % 3 {
	case 0:
		c.base *= 1 + 0.02*c.rng.Float64()
	case 1:
		c.base *= 1 - 0.02*c.rng.Float64()
	}
	c.base = min(max(c.base, 0.8), 2.2)
	count := int(math.Ceil(float64(len(body)) / 4 * c.base * (1 + 0.04*(c.rng.Float64()-0.5))))
	msg := map[string]any{"role": "assistant", "content": "Checkpoint: the hall was patrolled, every notice delivered."}
	if len(req.Tools) > 0 {
		c.counts = append(c.counts, count)
		c.decided++
		msg["content"] = fmt.Sprintf("Patrol leg %d: the corridor is clear, the doors are shut, the lights along the east wall are on "+
			"and nothing has moved since the last leg; I will report it and go on to the next leg.", c.decided)
		if c.decided <= c.turns {
			msg["tool_calls"] = []any{map[string]any{"id": fmt.Sprintf("call_%d", c.decided), "type": "function",
				"function": map[string]any{"name": "notify_user", "arguments": fmt.Sprintf(`{"message":"leg %d clear"}`, c.decided)}}}
		}
	}
	c.mu.Unlock()
	out, err := json.Marshal(map[string]any{"id": "chatcmpl", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": count, "completion_tokens": 30}})
	if err != nil {
		c.t.Errorf("encoding answer: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// Over the OpenAI wire, a provider whose count drifts and is noisy: no
// decision request reaches context_window - reserve_tokens in the
// provider's own count, the first included, while compaction runs.
func TestBudgetOverTheWireForADriftingProvider(t *testing.T) {
	const turns = 150
	srv := &counter{t: t, turns: turns, rng: rand.New(rand.NewPCG(20, 26)), base: 1.2}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	t.Setenv("THEA_E2E_KEY", key)
	path := filepath.Join(t.TempDir(), "spec.yaml")
	must(t, os.WriteFile(path, fmt.Appendf(nil, budgetSpec, hs.URL, testtime.Scale(20*time.Second), turns+2), 0o600))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts, err := components.Session(components.Options{Logger: logger})
	must(t, err)
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: opts.Components.Descriptors()})
	if len(diags) > 0 || spec == nil {
		t.Fatalf("spec: %v", diags)
	}
	h, err := engine.New(t.Context(), spec, opts)
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	compactions := 0
	var done *runlog.Report
	for ev := range h.RunStream(t.Context(), "Patrol the hall and report each leg.") {
		switch {
		case ev.Kind == runlog.EventCompaction && ev.Compaction.OK:
			compactions++
		case ev.Kind == runlog.EventDone:
			done = ev.Done
		}
	}
	if done == nil || done.Reason != runlog.DoneFinal {
		t.Fatalf("the task did not finish: %+v", done)
	}
	limit := spec.Context.Compaction.ContextWindow - spec.Context.Compaction.ReserveTokens
	srv.mu.Lock()
	counts := srv.counts
	srv.mu.Unlock()
	peak := 0
	for i, n := range counts {
		if n >= limit {
			t.Errorf("request %d: the provider counted %d tokens, reaching context_window - reserve_tokens (%d)", i+1, n, limit)
		}
		peak = max(peak, n)
	}
	if compactions < 5 || len(counts) != turns+1 {
		t.Fatalf("%d compactions over %d requests: the test never pressed the budget", compactions, len(counts))
	}
	t.Logf("%d requests, %d compactions, the largest counted %d of %d", len(counts), compactions, peak, limit)
	if done.Usage.InputTokens == 0 {
		t.Fatalf("task usage %+v", done.Usage)
	}
}
