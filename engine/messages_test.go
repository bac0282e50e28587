package engine

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// A failed call whose verdict gives the same reason is noted once.
func TestNoteLineDoesNotRepeatTheReason(t *testing.T) {
	env := runlog.Failure("the gripper is empty")
	env.Verdict = &world.Verdict{Status: world.VerdictFailure, Reason: "the gripper is empty"}
	got := noteLine(&CallResult{Tool: "pick_up", Env: env, Executed: true}, nil)
	if want := "pick_up: failed: the gripper is empty; verdict failure"; got != want {
		t.Fatalf("noteLine = %q, want %q", got, want)
	}
	env.Verdict.Reason = "the cup is still on the table"
	got = noteLine(&CallResult{Tool: "pick_up", Env: env, Executed: true}, nil)
	if !strings.Contains(got, "verdict failure: the cup is still on the table") {
		t.Fatalf("a different verdict reason must be kept: %q", got)
	}
}
