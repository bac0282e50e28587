package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A person plays the model on a pseudo-terminal: the household spec with
// the human provider. A pick_up with a number for its object name is
// refused with the schema's reason and retried as a navigate_to that runs
// on the simulator; a final answer ends the task; the consolidation call at
// task end is answered too. The episode is recorded and replays.
func TestHumanProviderPTY(t *testing.T) {
	spec := householdCopy(t)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	const scripted = "provider: \"script\"\n\tscript:   \"episode.yaml\"\n"
	if !bytes.Contains(b, []byte(scripted)) {
		t.Fatal("the household model block changed: update this test")
	}
	b = bytes.Replace(b, []byte(scripted), []byte("provider: \"human\"\n"), 1)
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(spec)
	s := startPTY(t, dir, "run", "--spec", "spec.cue", "--record", "by-hand", "Drive to the table")

	shown := s.expect("? your move")
	for _, want := range []string{
		"═══ Resident", "You control a household mobile manipulator", // the system prompt
		"Instruction: Drive to the table", // the accumulated tail
		"[image: head camera",             // the observation, images as placeholders
		"═══ Tools", "navigate_to — Drive the base to a target", `"object_name"`,
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the first turn does not show %q:\n%s", want, shown)
		}
	}
	s.send(`pick_up {"object_name": 5}` + "\r")
	s.expect(`✗ invalid arguments for pick_up: argument "object_name" must be string, got number — try again`)
	s.expect("? your move")
	s.send(`navigate_to {"target": "table"}` + "\r")
	second := s.expect("? your move")
	if !strings.Contains(second, "Resident: unchanged") || !strings.Contains(second, "→ call navigate_to") || strings.Contains(second, "Instruction: Drive") {
		t.Errorf("the second turn should show only what is new:\n%s", second)
	}
	if !strings.Contains(second, `"arrived_at"`) {
		t.Errorf("the second turn does not show the tool result:\n%s", second)
	}
	s.send("/final I am at the table.\r")
	s.expect("A consolidate call")
	s.expect("? your consolidate answer")
	s.send(`{"candidates": []}` + "\r")
	s.expect("final_answer")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "episodes", "by-hand", "events.jsonl")); err != nil {
		t.Fatalf("the hand-played episode was not recorded: %v", err)
	}
	code, out, errs := thea(t, "test", "--spec", spec, "by-hand")
	if code != 0 || !strings.Contains(out, "PASS by-hand (2 turns") {
		t.Errorf("replaying the hand-played episode: exit %d\n%s\n%s", code, out, errs)
	}
}
