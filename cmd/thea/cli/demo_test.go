package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

// The bundled demo, end to end: `thea run` on the household spec starts the
// simulator as a real MCP subprocess, the scripted model drives it, and the
// world pushes back. The run log must show the failed grasp from too far, the
// clamped translation, the recovery, the evaluator's verdicts and the report.
func TestHouseholdDemo(t *testing.T) {
	runs := t.TempDir()
	var out, errb bytes.Buffer
	code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, []string{
		"run", "--spec", testutil.ExampleCopy(t, filepath.Join("..", "..", "..", "examples", "household", "spec.cue")),
		"--run-log", runs, "Put the mug in the top drawer",
	})
	if code != 0 {
		t.Fatalf("thea run exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	evs := readRunLog(t, runs)
	checkBriefTracksSim(t, evs)

	type step struct {
		tool, status string
	}
	var results []step
	var verdicts []step
	var clamp *runlog.Decision
	var done *runlog.Report
	notified := false
	for _, ev := range evs {
		switch ev.Kind {
		case runlog.EventToolResult:
			s := "ok"
			if !ev.Result.Success {
				s = "failed: " + ev.Result.Reason
			}
			results = append(results, step{ev.Tool, s})
		case runlog.EventEvaluation:
			verdicts = append(verdicts, step{ev.Tool, string(ev.Verdict.Status) + " by " + ev.Verdict.Source})
		case runlog.EventHook:
			if ev.Hook.Decision == "clamp" {
				clamp = ev.Hook
			}
		case runlog.EventNotify:
			notified = true
		case runlog.EventDone:
			done = ev.Done
		}
	}
	wantResults := []step{
		{"navigate_to", "ok"},
		{"pick_up", "failed: too far from the target to grasp (1.10 m, reach 0.80 m); move closer"},
		{"move_base", "ok"},
		{"pick_up", "ok"},
		{"notify_user", "ok"},
		{"navigate_to", "ok"},
		{"open_drawer", "ok"},
		{"place", "ok"},
		{"close_drawer", "ok"},
	}
	if !slices.Equal(results, wantResults) {
		t.Errorf("tool results:\n got %v\nwant %v", results, wantResults)
	}
	wantVerdicts := []step{
		{"navigate_to", "success by check"},
		{"pick_up", "failure by tool"},
		{"pick_up", "success by check"},
		{"navigate_to", "success by check"},
		{"open_drawer", "success by check"},
		{"place", "success by check"},
		{"close_drawer", "success by model"},
	}
	if !slices.Equal(verdicts, wantVerdicts) {
		t.Errorf("verdicts:\n got %v\nwant %v", verdicts, wantVerdicts)
	}
	if clamp == nil || clamp.Hook != "clamp_translation" || clamp.Before["distance_m"] != 1.0 || clamp.After["distance_m"] != 0.5 {
		t.Errorf("clamp verdict = %+v, want clamp_translation 1.0 → 0.5", clamp)
	}
	if !notified {
		t.Error("no notification event from notify_user")
	}
	if done == nil || done.Reason != runlog.DoneFinal || done.Turns != 10 || !strings.Contains(done.Text, "top drawer") {
		t.Errorf("done = %+v, want a final answer after 10 turns naming the top drawer", done)
	}
	for _, want := range []string{"clamp_translation: clamp", "pick_up ✗ too far", "verdict    pick_up: success (by check)", "── done: final_answer", "run log: " + runs} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, out.String())
		}
	}
}

// readRunLog decodes the one task's events.jsonl under dir.
func readRunLog(t *testing.T, dir string) []runlog.Event {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "events.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("run logs under %s: %v (err %v), want one", dir, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []runlog.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var ev runlog.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("run log line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}
