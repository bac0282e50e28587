package engine

import (
	"slices"
	"testing"

	"github.com/thea-harness/thea/engine/memory"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// Verdicts, blocked calls and the user's answers reach consolidation as
// evidence lines; answers also as preference candidates.
func TestMemoryTraceEvidence(t *testing.T) {
	var tr memoryTrace
	for _, ev := range []runlog.Event{
		{Kind: runlog.EventModel, Turn: 1, Text: "thinking"},
		{Kind: runlog.EventHook, Turn: 1, Tool: "move_base", Hook: &runlog.Decision{Hook: "clearance", Decision: "block", Reason: "obstacle ahead"}},
		{Kind: runlog.EventHook, Turn: 1, Tool: "move_base", Hook: &runlog.Decision{Hook: "log", Decision: "allow"}},
		{Kind: runlog.EventToolResult, Turn: 2, Tool: "pick_up", Args: map[string]any{"object_name": "mug"}, Result: &runlog.Envelope{Success: true,
			Verdict: &world.Verdict{Status: "failure", Reason: "gripper empty", Evidence: "wrist camera"}}},
		{Kind: runlog.EventQuestion, Turn: 3, Tool: "query_user", Text: "Which mug?", Args: map[string]any{"question": "Which mug?", "answer": "the red one"}},
		{Kind: runlog.EventReplan, Turn: 4, Text: "bring the red mug instead"},
		{Kind: runlog.EventDone, Turn: 5, Done: &runlog.Report{Reason: runlog.DoneFailureBudget, Turns: 5, Text: "gave up"}},
	} {
		tr.observe(ev)
	}
	want := []string{
		"turn 1: hook clearance block move_base: obstacle ahead",
		`turn 2: pick_up({"object_name":"mug"}) succeeded; evaluator verdict failure: gripper empty (evidence: wrist camera)`,
		`turn 3: asked the user "Which mug?", answered "the red one"`,
		"turn 4: instruction revised: bring the red mug instead",
		"task ended (failure_budget) after 5 turns: gave up",
	}
	if !slices.Equal(tr.evidence, want) {
		t.Fatalf("evidence\n got %q\nwant %q", tr.evidence, want)
	}
	if !slices.Equal(tr.answers, []memory.Answer{{Question: "Which mug?", Answer: "the red one"}}) {
		t.Fatalf("answers %+v", tr.answers)
	}
	n := memoryNotes(TaskNotes{Goal: "g", Phase: "acting", Timeline: []NoteEvent{{Turn: 2, Text: "pick_up: ok"}}})
	if n.Goal != "g" || !slices.Equal(n.Timeline, []string{"turn 2: pick_up: ok"}) {
		t.Fatalf("notes %+v", n)
	}
}

func TestExperienceSummaryIgnoresUnsafeNames(t *testing.T) {
	for _, name := range []string{"../x", "a/b", ".hidden"} {
		if s, err := experienceSummary(t.Context(), t.TempDir(), name, 100); s != "" || err != nil {
			t.Errorf("experienceSummary(%q) = %q, %v", name, s, err)
		}
	}
}
