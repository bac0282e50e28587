package engine

import (
	"strings"
	"testing"
)

// Events emitted while no task runs are delivered with the next task, not
// dropped; past the bound they are counted.
func TestEventsBetweenTasksReachTheNextTask(t *testing.T) {
	var b betweenTasks
	b.keep(Event{Kind: EventSafety, Text: "late_reply: move"})
	got := b.take()
	if len(got) != 1 || got[0].Text != "late_reply: move" {
		t.Fatalf("took %+v", got)
	}
	if len(b.take()) != 0 {
		t.Fatal("events delivered twice")
	}
	for range maxBetween + 5 {
		b.keep(Event{Kind: EventSafety, Text: "x"})
	}
	got = b.take()
	if len(got) != maxBetween+1 || got[maxBetween].Kind != EventSinkError || !strings.Contains(got[maxBetween].Text, "5 more events") {
		t.Fatalf("bound: %d events, last %+v", len(got), got[len(got)-1])
	}
}
