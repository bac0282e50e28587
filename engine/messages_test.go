package engine

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/thea-harness/thea/schema"
)

// A failed call whose verdict gives the same reason is noted once.
func TestNoteLineDoesNotRepeatTheReason(t *testing.T) {
	env := Failure("the gripper is empty")
	env.Verdict = &schema.Verdict{Status: schema.VerdictFailure, Reason: "the gripper is empty"}
	got := noteLine(&CallResult{Tool: "pick_up", Env: env})
	if want := "pick_up: failed: the gripper is empty; verdict failure"; got != want {
		t.Fatalf("noteLine = %q, want %q", got, want)
	}
	env.Verdict.Reason = "the cup is still on the table"
	got = noteLine(&CallResult{Tool: "pick_up", Env: env})
	if !strings.Contains(got, "verdict failure: the cup is still on the table") {
		t.Fatalf("a different verdict reason must be kept: %q", got)
	}
}

// The omission marker never stands for fewer characters than it has, and it
// counts what it omits truly.
func TestBoundMiddleMarkerIsShorterThanWhatItOmits(t *testing.T) {
	for _, n := range []int{61, 65, 70, 90, 200, 1000} {
		s := strings.Repeat("a", n/2) + strings.Repeat("b", n-n/2)
		got := boundMiddle(s, 60)
		if len(got) > 60 {
			t.Fatalf("n=%d: %d bytes > 60", n, len(got))
		}
		i := strings.Index(got, " …[")
		if i < 0 {
			if !strings.HasSuffix(got, "…") {
				t.Fatalf("n=%d: cut without any marker: %q", n, got)
			}
			continue
		}
		marker := got[i : strings.LastIndex(got, "]… ")+len("]… ")]
		omitted := utf8.RuneCountInString(s) - utf8.RuneCountInString(got) + utf8.RuneCountInString(marker)
		if omitted <= utf8.RuneCountInString(marker) {
			t.Fatalf("n=%d: marker %q stands for only %d characters", n, marker, omitted)
		}
		if !strings.Contains(marker, "[") || !strings.Contains(got, omission(omitted)) {
			t.Fatalf("n=%d: marker %q does not say the %d omitted characters", n, marker, omitted)
		}
	}
}
