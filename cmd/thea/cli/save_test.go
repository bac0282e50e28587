package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
)

// A failure seen in a run becomes a regression test with one command: the
// run's log, saved with thea test --save, replays green against the
// unchanged spec, and red once the world no longer does what the failure
// was about (the grasp that slipped at seed 14 cannot slip).
func TestSavedFailureReplays(t *testing.T) {
	spec := householdCopy(t)
	dir := filepath.Dir(spec)
	runs := t.TempDir()
	code, out, errs := thea(t, "run", "--spec", spec, "--seed", "14", "--run-log", runs, "Put the mug in the top drawer")
	if code != 0 && code != 1 {
		t.Fatalf("thea run exit %d\n%s\n%s", code, out, errs)
	}
	tasks, err := episode.RunDirs(runs)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("run log: %v %v", tasks, err)
	}
	if !strings.Contains(out+errs, "grasp failed: mug slipped out of the gripper") {
		t.Fatalf("seed 14's grasp did not slip:\n%s\n%s", out, errs)
	}

	code, out, errs = thea(t, "test", "--spec", spec, "--save", tasks[0], "grasp-slips")
	if code != 0 || !strings.Contains(out, "PASS grasp-slips") || !strings.Contains(errs, "episode saved in "+filepath.Join(dir, "episodes", "grasp-slips")) {
		t.Fatalf("save: exit %d\n%s\n%s", code, out, errs)
	}
	// Only the events are kept, beside the shipped episode; thea test
	// replays both.
	entries, err := os.ReadDir(filepath.Join(dir, "episodes", "grasp-slips"))
	if err != nil || len(entries) != 1 || entries[0].Name() != "events.jsonl" {
		t.Errorf("the saved episode holds %v (%v), want events.jsonl only", entries, err)
	}
	if code, out, errs := thea(t, "test", "--spec", spec); code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("thea test: exit %d\n%s\n%s", code, out, errs)
	}
	// Saving over it, or without a name, is refused.
	if code, _, errs := thea(t, "test", "--spec", spec, "--save", tasks[0], "grasp-slips"); code != 2 || !strings.Contains(errs, "already exists") {
		t.Errorf("saving over an episode: exit %d %s", code, errs)
	}
	if code, _, errs := thea(t, "test", "--spec", spec, "--save", tasks[0]); code != 2 || !strings.Contains(errs, "give the episode's NAME") {
		t.Errorf("saving without a name: exit %d %s", code, errs)
	}
	if code, _, errs := thea(t, "test", "--spec", spec, "--save", t.TempDir(), "empty"); code != 2 || !strings.Contains(errs, "--save") {
		t.Errorf("saving a folder without a run log: exit %d %s", code, errs)
	}

	// The grasp can no longer slip: the replay diverges at that grasp.
	world := filepath.Join(dir, "world.yaml")
	b, err := os.ReadFile(world)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(world, bytes.Replace(b, []byte("  pick_up: 0.9"), []byte("  pick_up: 1.0"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = thea(t, "test", "--spec", spec, "grasp-slips")
	if code != 1 || !strings.Contains(out, "FAIL grasp-slips: diverged at turn 4, evaluation pick_up") ||
		!strings.Contains(out, "grasp failed: mug slipped out of the gripper") {
		t.Errorf("after the change: exit %d\n%s\n%s", code, out, errs)
	}
}

// thea eval --save-failures saves each failing seed, and only those, as an
// episode that replays green.
func TestEvalSavesFailures(t *testing.T) {
	spec := householdCopy(t)
	saved := filepath.Join(t.TempDir(), "failures")
	code, out, errs := thea(t, "eval", "--spec", spec, "--seeds", "13..14", "--save-failures", saved)
	if code != 0 || !strings.Contains(out, "1/2 succeeded") {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "thea eval: seed 14 FAIL verdict_failure:pick_up, saved in "+filepath.Join(saved, "seed-14")) {
		t.Errorf("stderr:\n%s", errs)
	}
	entries, err := os.ReadDir(saved)
	if err != nil || len(entries) != 1 || entries[0].Name() != "seed-14" {
		t.Fatalf("saved: %v %v", entries, err)
	}
	if code, out, errs := thea(t, "test", "--spec", spec, filepath.Join(saved, "seed-14")); code != 0 || !strings.Contains(out, "PASS seed-14") {
		t.Errorf("replaying seed 14: exit %d\n%s\n%s", code, out, errs)
	}
}

// A run the operator stopped replays as stopped: the replay stops where
// the recording did, once it has produced every step before the stop,
// instead of asking the model for a decision that was never recorded.
func TestStoppedRunReplays(t *testing.T) {
	spec := householdCopy(t)
	events := filepath.Join(filepath.Dir(spec), "episodes", "put-mug-in-drawer", "events.jsonl")
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	// The household run, stopped after turn 2's grasp: its events up to
	// turn 3's observation, then the stop.
	lines := strings.SplitAfter(string(b), "\n")
	var kept []string
	for _, l := range lines {
		if strings.Contains(l, `"turn":3,`) && !strings.Contains(l, `"kind":"observation"`) && !strings.Contains(l, `"kind":"scene"`) {
			break
		}
		kept = append(kept, l)
	}
	kept = append(kept,
		`{"kind":"cancel","task":1,"turn":3,"text":"cancelled before decide (context: context canceled)"}`+"\n",
		`{"kind":"done","task":1,"turn":3,"done":{"reason":"cancelled","turns":3,"error":"cancelled before decide"}}`+"\n")
	stopped := filepath.Join(filepath.Dir(spec), "episodes", "stopped")
	if err := os.MkdirAll(stopped, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stopped, "events.jsonl"), []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := thea(t, "test", "--spec", spec, "stopped")
	if code != 0 || !strings.Contains(out, "PASS stopped") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// thea eval --save-failures refuses, as thea test --save does, an episode
// already saved at DIR/seed-N (its events.jsonl is kept as it was) and a
// symbolic link there (nothing is written through it); the seed's line
// says why it was not saved.
func TestEvalSaveFailuresRefusesExisting(t *testing.T) {
	spec := householdCopy(t)
	saved := t.TempDir()
	outside := t.TempDir()
	existing := filepath.Join(saved, "existing")
	if err := os.MkdirAll(filepath.Join(existing, "seed-14"), 0o755); err != nil {
		t.Fatal(err)
	}
	events := filepath.Join(existing, "seed-14", "events.jsonl")
	if err := os.WriteFile(events, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(saved, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(linked, "seed-14")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{existing, linked} {
		code, out, errs := thea(t, "eval", "--spec", spec, "--seeds", "14", "--save-failures", dir)
		if code != 0 || !strings.Contains(out, "0/1 succeeded") {
			t.Fatalf("eval: exit %d\n%s\n%s", code, out, errs)
		}
		want := "not saved: saving episode: " + filepath.Join(dir, "seed-14") + " exists: refusing"
		if !strings.Contains(errs, want) || strings.Contains(errs, "saved in") {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if b, err := os.ReadFile(events); err != nil || string(b) != "kept\n" {
		t.Errorf("the saved episode is now %q (%v)", b, err)
	}
	if entries, err := os.ReadDir(outside); err != nil || len(entries) != 0 {
		t.Errorf("written through the link: %v (%v)", entries, err)
	}
}
