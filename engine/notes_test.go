package engine

import (
	"fmt"
	"strings"
	"testing"
)

// Every snapshot is the whole notes: the goal and the phase beside the
// timeline, whatever changed.
func TestTaskNotesSnapshotsAreWhole(t *testing.T) {
	var n TaskNotes
	n.reset("Put the mug away")
	if got := n.snapshot(); got != "Task Notes\nGoal: Put the mug away\nPhase: starting\nTimeline: (empty)" {
		t.Fatalf("first snapshot:\n%s", got)
	}
	n.addResult(1, "navigate_to", false, "navigate_to: ok")
	n.setPhase("acting")
	if got := n.snapshot(); got != "Task Notes\nGoal: Put the mug away\nPhase: acting\nTimeline:\n- turn 1: navigate_to: ok" {
		t.Fatalf("second snapshot:\n%s", got)
	}
	n.setGoal("Put the cup away")
	n.addResult(2, "pick_up", true, "pick_up: failed: too far")
	want := "Task Notes\nGoal: Put the cup away\nPhase: acting\nTimeline:\n- turn 1: navigate_to: ok\n- turn 2: pick_up: failed: too far"
	if got := n.snapshot(); got != want {
		t.Fatalf("third snapshot:\n%s\nwant\n%s", got, want)
	}
}

// On a long task a snapshot lists the latest events and folds the earlier
// ones into one line counting them by tool (failures too); its size stays
// bounded however long the task runs.
func TestTaskNotesSnapshotFoldsEarlierEvents(t *testing.T) {
	var n TaskNotes
	n.reset("patrol")
	tools := []string{"navigate_to", "pick_up", "place", "rotate", "open_drawer", "close_drawer", "move_base", "get_image"}
	turn := 0
	add := func(tool string, failed bool) {
		turn++
		if tool == "" {
			n.add(turn, "a late reply from move_base")
			return
		}
		text := tool + ": ok"
		if failed {
			text = tool + ": failed: no"
		}
		n.addResult(turn, tool, failed, text)
	}
	// 12 navigate_to (3 failed), 9 pick_up (2 failed), 4 place, 1 each of
	// five more tools, 2 notes: 37 events, then 12 that stay listed.
	for i := range 12 {
		add("navigate_to", i < 3)
	}
	for i := range 9 {
		add("pick_up", i < 2)
	}
	for range 4 {
		add("place", false)
	}
	for _, tool := range tools[3:] {
		add(tool, false)
	}
	add("", false)
	add("", false)
	if turn != 32 {
		t.Fatalf("set-up: %d events", turn)
	}
	// An early snapshot folds some events; a later one folds the rest of
	// them on top (each event is counted once).
	for range 5 {
		add("rotate", false)
	}
	_ = n.snapshot()
	for range 12 {
		add("rotate", false)
	}
	got := n.snapshot()
	want := "Task Notes\nGoal: patrol\nPhase: starting\nTimeline:\n" +
		"- … 37 earlier events (turns 1-37): 12 navigate_to (3 failed), 9 pick_up (2 failed), 6 rotate, 4 place, 1 open_drawer, 1 close_drawer, 2 by 2 other tools, 2 notes"
	for i := 38; i <= 49; i++ {
		want += fmt.Sprintf("\n- turn %d: rotate: ok", i)
	}
	if got != want {
		t.Fatalf("snapshot:\n%s\nwant\n%s", got, want)
	}
	for range 5000 {
		add(tools[turn%len(tools)], turn%7 == 0)
	}
	if got := n.snapshot(); len(got) > 1000 || strings.Count(got, "\n- turn ") != notesShownEvents {
		t.Fatalf("after 5,049 events the snapshot is %d bytes, %d events listed:\n%s", len(got), strings.Count(got, "\n- turn "), got)
	}
}
