package e2e_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
)

// sixtyTurns is the household episode's nine decisions (the mug into the
// top drawer, close_drawer judged by the evaluator), then 50 trips between
// the table and the cabinet, then a final answer: 60 decisions; and the
// compaction summaries.
func sixtyTurns(t *testing.T) *script.Model {
	t.Helper()
	nav := func(target string) script.Entry {
		return script.Entry{Text: "Checking the " + target + ".", ToolCalls: []script.Call{{Name: "navigate_to", Arguments: map[string]any{"target": target}}}}
	}
	es := []script.Entry{
		nav("table"),
		{ToolCalls: []script.Call{{Name: "pick_up", Arguments: map[string]any{"object_name": "mug"}}}},
		{ToolCalls: []script.Call{{Name: "move_base", Arguments: map[string]any{"direction": "forward", "distance_m": 1.0}}}},
		{ToolCalls: []script.Call{{Name: "pick_up", Arguments: map[string]any{"object_name": "mug"}}}},
		{ToolCalls: []script.Call{{Name: "notify_user", Arguments: map[string]any{"message": "I have the mug."}}}},
		nav("cabinet"),
		{ToolCalls: []script.Call{{Name: "open_drawer", Arguments: map[string]any{"name": "top_drawer"}}}},
		{ToolCalls: []script.Call{{Name: "place", Arguments: map[string]any{"object_name": "mug", "target": "top_drawer", "relation": "in"}}}},
		{ToolCalls: []script.Call{{Name: "close_drawer", Arguments: map[string]any{"name": "top_drawer"}}}},
		{Purpose: model.PurposeEvaluate, Text: `{"status": "success", "reason": "The top drawer is closed.", "confidence": 0.9}`},
	}
	for i := range 50 {
		es = append(es, nav([]string{"table", "cabinet"}[i%2]))
	}
	es = append(es, script.Entry{Text: "Done: the mug is in the top drawer; I checked the table and the cabinet 50 times."})
	// The server takes a request without tools for the task-end
	// consolidation (off here): these are the compaction summaries.
	for range 30 {
		es = append(es, script.Entry{Purpose: model.PurposeConsolidate, Text: "The mug is in the closed top drawer of the kitchen cabinet. Since then the robot has gone back and forth between the table and the cabinet."})
	}
	m, err := script.FromEntries("sixty turns", es...)
	must(t, err)
	return m
}

// householdSixty runs the 60-turn household task over the OpenAI wire (the
// server counts a request's input tokens as its bytes over four) with
// window as context_window (0: the spec's own), and returns each decision
// request's size as the harness estimated it and as the provider counted
// it, and the turns that compacted.
func householdSixty(t *testing.T, window, reserve int) (estimate, counted, compactedAt []int, last string, rep *runlog.Report) {
	spec, _ := household(t)
	spec.Safety.MaxTurns = 61
	spec.Memory.Consolidation.Enabled = false
	if window > 0 {
		c := &spec.Context.Compaction
		c.ContextWindow, c.ReserveTokens = window, reserve
		c.KeepRecentTokens = min(c.KeepRecentTokens, window/2)
	}
	srv := overWire(t, spec, openaiWire(), sixtyTurns(t))
	h := newHarness(t, spec, t.TempDir())
	for ev := range h.RunStream(t.Context(), "Put the mug in the top drawer") {
		switch ev.Kind {
		case runlog.EventContext:
			estimate = append(estimate, ev.Tokens.Total)
		case runlog.EventCompaction:
			if ev.Compaction.OK {
				compactedAt = append(compactedAt, ev.Turn)
			}
		case runlog.EventDone:
			rep = ev.Done
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for i, b := range srv.bodies {
		if srv.purposes[i] == model.PurposeDecide {
			counted = append(counted, len(b)/4)
			last = string(b)
		}
	}
	return estimate, counted, compactedAt, last, rep
}

// The request size per turn of a 60-turn household task, in the harness's
// estimate and the provider's count (BENCHMARKS.md has the table): with the
// spec's window it grows by the turn's new messages only, each Task Notes
// event among them once; with a window of
// 12,000 tokens no request reaches the budget in the provider's count and
// compaction never runs in two consecutive turns.
func TestHouseholdSixtyTurns(t *testing.T) {
	estimate, counted, _, last, rep := householdSixty(t, 0, 0)
	if rep == nil || rep.Reason != runlog.DoneFinal || len(estimate) != 60 {
		t.Fatalf("report %+v after %d requests", rep, len(estimate))
	}
	// Each Task Notes event is sent once: in the update that added it (and
	// the latest 12 again in the whole notes of the tail).
	seen := map[string]int{}
	for _, m := range regexp.MustCompile(`- turn (\d+): [^\\"]*`).FindAllStringSubmatch(last, -1) {
		if k, _ := strconv.Atoi(m[1]); k <= 47 {
			seen[m[0]]++
		}
	}
	if len(seen) < 47 {
		t.Errorf("the last request holds %d Task Notes events of turns 1-47, want one a turn at least", len(seen))
	}
	for line, n := range seen {
		if n != 1 {
			t.Errorf("the last request holds the Task Notes event %q %d times, want once", line, n)
		}
	}
	var b strings.Builder
	b.WriteString("\n| turn | 1 | 10 | 20 | 30 | 40 | 50 | 60 |\n|---|---|---|---|---|---|---|---|\n| estimate |")
	for _, i := range []int{1, 10, 20, 30, 40, 50, 60} {
		fmt.Fprintf(&b, " %d |", estimate[i-1])
	}
	b.WriteString("\n| provider's count |")
	for _, i := range []int{1, 10, 20, 30, 40, 50, 60} {
		fmt.Fprintf(&b, " %d |", counted[i-1])
	}
	growth := float64(estimate[59]-estimate[9]) / 50
	fmt.Fprintf(&b, "\ngrowth per turn, turns 10-60: %.0f estimated tokens, %.0f counted", growth, float64(counted[59]-counted[9])/50)
	t.Log(b.String())

	const window, reserve = 12000, 2000
	_, counted, at, _, rep := householdSixty(t, window, reserve)
	if rep == nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("small window: report %+v", rep)
	}
	for i, n := range counted {
		if n >= window-reserve {
			t.Errorf("small window: request %d counted %d tokens, over the budget %d", i+1, n, window-reserve)
		}
	}
	for i := 1; i < len(at); i++ {
		if at[i]-at[i-1] < 2 {
			t.Errorf("small window: compactions in consecutive turns: %v", at)
		}
	}
	t.Logf("small window (%d - %d): %d compactions, at turns %v", window, reserve, len(at), at)
}
