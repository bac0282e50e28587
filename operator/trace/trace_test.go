package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The trace reads call → result → verdict: post-execution lines wait for
// the result; verbose adds calls, context sizes and skipped hooks.
func TestWriterOrderAndVerbose(t *testing.T) {
	evs := []runlog.Event{
		{Kind: runlog.EventTaskStart, Task: 1, Text: "fetch the mug"},
		{Kind: runlog.EventContext, Turn: 1, Tokens: &runlog.TokenCounts{Resident: 1, Refreshed: 2, Accumulated: 3, Total: 6}},
		{Kind: runlog.EventObservation, Turn: 1, Observation: withHeldKnown(world.Observation{
			Clearance: world.Clearance{"front": 1, "back": 2, "left": 3, "right": 4}, Pose: &world.Pose{Room: "kitchen"},
			Detections: []world.Detection{{Name: "mug", Visible: true}, {Name: "mug", Visible: true}, {Name: "ghost"}},
		}), Images: []world.Image{{Camera: "head"}}},
		{Kind: runlog.EventModel, Turn: 1, Text: "grab  it", Tool: "pick_up", Args: map[string]any{"object_name": "mug"}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "pre", Hook: "far", Decision: "skip"}},
		{Kind: runlog.EventToolCall, Turn: 1, Tool: "pick_up", Args: map[string]any{"object_name": "mug"}},
		{Kind: runlog.EventEvaluation, Turn: 1, Tool: "pick_up", Verdict: &world.Verdict{Status: "success", Source: "check"}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Phase: "post", Hook: "note_it", Decision: "note", Reason: "noted"}},
		{Kind: runlog.EventToolResult, Turn: 1, Tool: "pick_up", Result: &runlog.Envelope{Success: true, Value: map[string]any{"held": "mug"}}},
		{Kind: runlog.EventCompaction, Turn: 2, Compaction: &runlog.CompactionInfo{OK: false, Error: "summary empty"}},
		{Kind: runlog.EventSinkError, Turn: 2, Text: "run log incomplete from turn 2: disk full"},
		{Kind: runlog.EventDone, Turn: 2, Done: &runlog.Report{Reason: runlog.DoneMaxTurns, Turns: 2, Text: "Task ended.\n- turn 1: picked", RunDir: "/runs/x"}},
	}
	want := `── task 1: fetch the mug
turn 1   observe    clearance F 1.00 B 2.00 L 3.00 R 4.00 · in kitchen · holding nothing · sees mug · 1 image(s)
turn 1   model      "grab it" → pick_up {"object_name":"mug"}
turn 1   result     pick_up ✓ {"held":"mug"}
turn 1   verdict    pick_up: success (by check)
turn 1   hook       post note_it: note — noted
turn 2   compact    failed, context unchanged: summary empty
turn 2   sink       run log incomplete from turn 2: disk full
── done: max_turns after 2 turn(s)
report: Task ended.
  - turn 1: picked
run log: /runs/x
`
	wantVerbose := `── task 1: fetch the mug
turn 1   context    ~6 tokens (resident 1, refreshed 2, accumulated 3)
turn 1   observe    clearance F 1.00 B 2.00 L 3.00 R 4.00 · in kitchen · holding nothing · sees mug · 1 image(s)
turn 1   model      "grab it" → pick_up {"object_name":"mug"}
turn 1   hook       pre far: skip
turn 1   call       pick_up {"object_name":"mug"}
turn 1   result     pick_up ✓ {"held":"mug"}
turn 1   verdict    pick_up: success (by check)
turn 1   hook       post note_it: note — noted
turn 2   compact    failed, context unchanged: summary empty
turn 2   sink       run log incomplete from turn 2: disk full
── done: max_turns after 2 turn(s)
report: Task ended.
  - turn 1: picked
run log: /runs/x
`
	for verbose, w := range map[bool]string{false: want, true: wantVerbose} {
		var b bytes.Buffer
		tw := trace.New(&b, verbose)
		for _, ev := range evs {
			if err := tw.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != w {
			t.Errorf("verbose=%v:\n--- got\n%s--- want\n%s", verbose, b.String(), w)
		}
	}
}

// withHeldKnown is o with held sent (empty: the gripper holds nothing).
func withHeldKnown(o world.Observation) *world.Observation {
	o.SetKnown(world.FieldHeld)
	return &o
}

// An observation without held says nothing about the gripper: the trace
// does not say "holding nothing".
func TestObservationLineWithoutHeld(t *testing.T) {
	line := func(o *world.Observation) string {
		var b bytes.Buffer
		tw := trace.New(&b, false)
		if err := tw.Write(runlog.Event{Kind: runlog.EventObservation, Turn: 1, Observation: o}); err != nil {
			t.Fatal(err)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got := line(&world.Observation{Pose: &world.Pose{Room: "kitchen"}}); strings.Contains(got, "holding") {
		t.Fatalf("trace %q claims what the gripper holds", got)
	}
	if got := line(withHeldKnown(world.Observation{Pose: &world.Pose{Room: "kitchen"}})); !strings.Contains(got, "holding nothing") {
		t.Fatalf("trace %q: held sent empty", got)
	}
}
