package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// What the model is told is what happened, against the household
// simulator as a subprocess and the bundled spec's own hooks: a wrong-typed
// distance is the schema's refusal before any hook; a pick_up that never
// ran is never judged; the clamp of a 3 m move says what it changed; a
// second call in one response is refused in its own result.
func TestHouseholdToldWhatHappened(t *testing.T) {
	spec := householdCopy(t)
	script := `
- tool_calls: [{name: move_base, arguments: {direction: forward, distance_m: "3"}}]
- tool_calls: [{name: pick_up, arguments: {object_name: 5}}]
- tool_calls: [{name: navigate_to, arguments: {target: table}}]
- tool_calls: [{name: move_base, arguments: {direction: forward, distance_m: 3}}]
- tool_calls: [{name: pick_up, arguments: {object_name: mug}}, {name: rotate, arguments: {degrees: 90}}]
- text: "Holding the mug."
`
	if err := os.WriteFile(filepath.Join(filepath.Dir(spec), "episode.yaml"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := runTask(t, spec, "Pick up the mug")
	results := map[int]runlog.Event{}
	var done *runlog.Report
	for _, ev := range evs {
		switch ev.Kind {
		case runlog.EventHook, runlog.EventEvaluation, runlog.EventToolCall:
			if ev.Turn <= 2 {
				t.Errorf("turn %d's call failed its schema, yet a %s event on %s", ev.Turn, ev.Kind, ev.Tool)
			}
		case runlog.EventToolResult:
			results[ev.Turn] = ev
		case runlog.EventDone:
			done = ev.Done
		}
	}
	if done == nil || done.Reason != runlog.DoneFinal {
		t.Fatalf("task ended %+v; want its final answer", done)
	}
	for turn, want := range map[int]string{
		1: `invalid arguments for move_base: argument "distance_m" must be number, got string`,
		2: `invalid arguments for pick_up: argument "object_name" must be string, got number`,
	} {
		r := results[turn].Result
		if r == nil || !strings.HasPrefix(r.Reason, want) || r.Verdict != nil {
			t.Errorf("turn %d: result %+v, want %q and no verdict", turn, r, want)
		}
	}
	clamp := "harness: move_base ran with arguments changed by its hooks: distance_m 3 → 0.5 by clamp hook clamp_translation (Translation limited to the free space in that direction.)."
	if got := results[4].Text; !strings.HasPrefix(got, clamp) {
		t.Errorf("turn 4's result says %q, want %q", got, clamp)
	}
	refused := "1 more call in the response was not executed (one tool call per turn): rotate"
	if got := results[5]; got.Result == nil || !got.Result.Success || got.Text != refused {
		t.Errorf("turn 5's result %+v says %q, want pick_up's success and %q", got.Result, got.Text, refused)
	}
}
