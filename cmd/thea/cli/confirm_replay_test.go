package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A confirm hook that could not ask anyone while recording (no terminal, a
// channel that takes no confirmations) blocked the call with a reason; an
// unchanged spec replays that confirmation as recorded, the same reason,
// and the episode passes.
func TestConfirmWithoutChannelReplaysAsRecorded(t *testing.T) {
	spec := householdCopy(t)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, r := range [][2]string{
		{"name:   \"confirm_nothing\"\n\t\twhen:   \"false\"", "name:   \"confirm_nothing\"\n\t\twhen:   \"tool.name == 'navigate_to'\""},
		{"channel: \"script\"\n\tscript:  \"answers.yaml\"", "channel: \"none\""},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("spec.cue no longer has %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The task fails (its navigation is blocked); the episode is recorded.
	code, out, errs := thea(t, "run", "--spec", spec, "--record", "unconfirmed", "Put the mug in the top drawer")
	if !strings.Contains(out, "blocked by hook confirm_nothing") || !strings.Contains(errs, "episode recorded") {
		t.Fatalf("thea run --record: exit %d, want the navigate_to calls blocked by the confirm hook\n%s\n%s", code, out, errs)
	}
	events, err := os.ReadFile(filepath.Join(filepath.Dir(spec), "episodes", "unconfirmed", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(events), `asking for confirmation failed: this user channel cannot take confirmations`) {
		t.Fatalf("the recording lacks the confirm hook's block")
	}
	code, out, errs = thea(t, "test", "--spec", spec, "unconfirmed")
	if code != 0 || !strings.Contains(out, "PASS unconfirmed") {
		t.Fatalf("replaying the unchanged spec: exit %d\n%s\n%s", code, out, errs)
	}
}

// A person's answers to a confirm hook are recorded as data on the hook's
// decision (who answered, the call, the outcome and the text), and an
// unchanged spec replays them from it: the episode passes.
func TestConfirmationsRecordedAsDataReplay(t *testing.T) {
	spec := householdCopy(t)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	from := "name:   \"confirm_nothing\"\n\t\twhen:   \"false\""
	if !strings.Contains(src, from) {
		t.Fatalf("spec.cue no longer has %q", from)
	}
	src = strings.Replace(src, from, "name:   \"confirm_nothing\"\n\t\twhen:   \"tool.name == 'navigate_to'\"", 1)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	answers := "answers:\n  - answer: \"not now\"\n" + strings.Repeat("  - answer: \"yes\"\n", 20)
	if err := os.WriteFile(filepath.Join(filepath.Dir(spec), "answers.yaml"), []byte(answers), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := thea(t, "run", "--spec", spec, "--record", "confirmed", "Put the mug in the top drawer")
	if !strings.Contains(errs, "episode recorded") {
		t.Fatalf("thea run --record: exit %d\n%s\n%s", code, out, errs)
	}
	events, err := os.ReadFile(filepath.Join(filepath.Dir(spec), "episodes", "confirmed", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"confirmation":{"by":"script","tool":"navigate_to","args":{`,
		`"hook":"confirm_nothing","prompt":"Allow this call?","outcome":"deny","answer":"not now","time":"`,
		`"outcome":"approve","answer":"yes","time":"`,
	} {
		if !strings.Contains(string(events), want) {
			t.Fatalf("the recording lacks %s", want)
		}
	}
	code, out, errs = thea(t, "test", "--spec", spec, "confirmed")
	if code != 0 || !strings.Contains(out, "PASS confirmed") {
		t.Fatalf("replaying the unchanged spec: exit %d\n%s\n%s", code, out, errs)
	}
}
