package engine_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// The retained tail alone (four turns of long results, keep_recent_tokens
// far above the budget) does not fit beside Resident and Refreshed context:
// compaction at the budget keeps of it only what fits, so no request, in
// the provider's count, reaches context_window - reserve_tokens. Before,
// every request after the first compaction went out over the budget.
func TestNoRequestOverTheBudget(t *testing.T) {
	const turns = 60
	f, limit, counted, estimate := budgetTask(t, turns, func() float64 { return 1.2 })
	c := &f.spec.Context.Compaction
	c.KeepRecentTokens, c.ToolResultMaxChars = 100000, 6000
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 560)}}
	}
	if compactions := runBudget(t, f, limit, counted, estimate); compactions == 0 {
		t.Fatal("no compaction: the test never approached the budget")
	}
	if len(*counted) != turns+1 {
		t.Fatalf("%d requests, want %d", len(*counted), turns+1)
	}
}

// Resident context alone over the budget: no request is sent, and the task
// ends saying so, with the numbers.
func TestOversizeResidentFailsClearly(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	f.spec.SystemPrompt = strings.Repeat("Be careful. ", 2500) // 30,000 characters
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 6000, 1000
	var done *runlog.Report
	for ev := range f.harness(t).RunStream(t.Context(), "tidy up") {
		if ev.Kind == runlog.EventDone {
			done = ev.Done
		}
	}
	if n := len(f.decide.requests()); n != 0 {
		t.Fatalf("%d decide requests went out over the budget", n)
	}
	if done == nil || done.Reason != runlog.DoneError {
		t.Fatalf("done %+v, want an error", done)
	}
	for _, want := range []string{"over the budget of 5000", "context_window 6000 - reserve_tokens 1000", "Resident context alone"} {
		if !strings.Contains(done.Error, want) {
			t.Errorf("the report does not say %q:\n%s", want, done.Error)
		}
	}
	// The Resident share it names is the system prompt's 7,500 tokens and more.
	m := regexp.MustCompile(`Resident (\d+), Refreshed \d+, Accumulated \d+`).FindStringSubmatch(done.Error)
	if len(m) != 2 {
		t.Fatalf("the report does not give each lifetime's size:\n%s", done.Error)
	}
	if n, _ := strconv.Atoi(m[1]); n < 7500 {
		t.Errorf("the report gives Resident as %d tokens, under the system prompt's 7500:\n%s", n, done.Error)
	}
	t.Log(done.Text)
}

// With compaction off, what a request over the budget can shed is its
// images: they are left out, with a placeholder saying why, and the
// request goes out within the budget.
func TestImagesLeftOutOverTheBudget(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.spec.SceneGraph.Enabled = false
	observeSteps(f, nil)
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = false, 2000, 1000
	rep, err := f.harness(t).Run(t.Context(), "look")
	if err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("Run = %+v, %v", rep, err)
	}
	reqs := f.decide.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d decide requests", len(reqs))
	}
	tail := reqs[0].Messages[len(reqs[0].Messages)-1]
	for _, p := range tail.Parts {
		if p.Image != nil {
			t.Fatal("the image went out over the budget")
		}
	}
	if s := textOf(tail); !strings.Contains(s, "[image: head camera, 32x24, left out: the request would exceed its budget of 1000 tokens]") {
		t.Fatalf("the tail does not say the image was left out:\n%s", s)
	}
}

// Compaction at the budget brings the request down to the low-water mark
// (target of the budget), so it does not run again at the next turn: here
// keep_recent_tokens alone fills nearly the whole budget, and without the
// mark every turn past the first compaction compacted again.
func TestCompactionLowWaterMark(t *testing.T) {
	const turns = 80
	f, limit, counted, estimate := budgetTask(t, turns, func() float64 { return 1 })
	c := &f.spec.Context.Compaction
	c.KeepRecentTurns, c.KeepRecentTokens = 1000, limit-400
	var at []int
	for ev := range f.harness(t).RunStream(t.Context(), "Patrol the hall.") {
		switch ev.Kind {
		case runlog.EventContext:
			*estimate = ev.Tokens.Total
		case runlog.EventCompaction:
			if !ev.Compaction.OK {
				t.Fatalf("turn %d: compaction failed: %s", ev.Turn, ev.Compaction.Error)
			}
			at = append(at, ev.Turn)
		}
	}
	for i, n := range *counted {
		if n >= limit {
			t.Fatalf("request %d: %d tokens reach the budget %d", i+1, n, limit)
		}
	}
	if len(at) < 2 {
		t.Fatalf("compactions at turns %v: the test never compacted twice", at)
	}
	for i := 1; i < len(at); i++ {
		if at[i]-at[i-1] < 2 {
			t.Fatalf("compactions at turns %v: two in consecutive turns", at)
		}
	}
	if len(at) > turns/4 {
		t.Fatalf("%d compactions in %d turns (at %v): the low-water mark leaves no room", len(at), turns, at)
	}
	t.Logf("compactions at turns %v", at)
}

// Task Notes in Accumulated context state each change once: every
// timeline event appears there in one message only, so their bytes grow
// with the events, not with events times snapshots; the whole notes lead
// the Refreshed tail; each request repeats the previous one up to its tail.
func TestTaskNotesSentOnce(t *testing.T) {
	const turns = 60
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	if _, err := f.harness(t).Run(t.Context(), "Patrol the hall."); err != nil {
		t.Fatal(err)
	}
	reqs := f.decide.requests()
	if len(reqs) != turns+1 {
		t.Fatalf("%d requests", len(reqs))
	}
	notesBytes := func(i int) int {
		msgs := reqs[i-1].Messages
		n := 0
		for _, m := range msgs[1 : len(msgs)-1] {
			if s := textOf(m); strings.HasPrefix(s, "Task Notes") {
				n += len(s)
			}
		}
		return n
	}
	b30, b60 := notesBytes(30), notesBytes(60)
	if float64(b60)/float64(b30) >= 2.2 {
		t.Errorf("Task Notes in Accumulated context: %d bytes at turn 30, %d at turn 60: growing faster than the events", b30, b60)
	}
	last := reqs[turns].Messages
	for k := 1; k <= turns; k++ {
		line := fmt.Sprintf("- turn %d: move: ok\n", k)
		in := 0
		for _, m := range last[1 : len(last)-1] {
			in += strings.Count(textOf(m)+"\n", line)
		}
		if in != 1 {
			t.Fatalf("the event of turn %d is in %d messages of Accumulated context, want 1", k, in)
		}
	}
	tail := textOf(last[len(last)-1])
	if !strings.HasPrefix(tail, "Task Notes\nGoal: Patrol the hall.\nPhase: acting\nTimeline:\n- … 48 earlier events (turns 1-48): 48 move\n") ||
		!strings.Contains(tail, fmt.Sprintf("- turn %d: move: ok\n\n", turns)) {
		t.Fatalf("the tail does not lead with the whole Task Notes:\n%s", tail)
	}
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1].Messages, reqs[i].Messages
		for j := range prev[:len(prev)-1] {
			if textOf(prev[j]) != textOf(cur[j]) {
				t.Fatalf("request %d differs from request %d at message %d", i+1, i, j)
			}
		}
	}
	t.Logf("Task Notes in Accumulated context: %d bytes at turn 30, %d at turn 60", b30, b60)
}
