package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// A real model's wire-format mistakes and a long turn in steps, against the
// household simulator as a subprocess: three unknown tool calls do not spend
// the failure budget of failed actions (consecutive 3), and three identical
// rotations that each turn the robot (the observed pose changes) are not a
// loop. The task ends on its final answer.
func TestBudgetsSpareAProgressingModel(t *testing.T) {
	spec := householdCopy(t)
	script := `
- tool_calls: [{name: teleport, arguments: {to: kitchen}}]
- tool_calls: [{name: teleport, arguments: {to: hall}}]
- tool_calls: [{name: sim_teleport, arguments: {to: table}}]
- tool_calls: [{name: rotate, arguments: {degrees: 45}}]
- tool_calls: [{name: rotate, arguments: {degrees: 45}}]
- tool_calls: [{name: rotate, arguments: {degrees: 45}}]
- text: "Turned 135 degrees in three steps."
`
	if err := os.WriteFile(filepath.Join(filepath.Dir(spec), "episode.yaml"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := runTask(t, spec, "Turn around in small steps")
	var done *runlog.Report
	rotations := 0
	for _, ev := range evs {
		switch {
		case ev.Kind == runlog.EventDone:
			done = ev.Done
		case ev.Kind == runlog.EventToolResult && ev.Tool == "rotate" && ev.Result != nil && ev.Result.Success:
			rotations++
		}
	}
	if done == nil || done.Reason != runlog.DoneFinal {
		t.Fatalf("task ended %+v; want its final answer", done)
	}
	if rotations != 3 {
		t.Errorf("%d successful rotations, want 3", rotations)
	}
}
