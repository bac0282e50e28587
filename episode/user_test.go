package episode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/policies"
)

// A replay answers the model's questions and the confirm hooks with what
// was recorded, each in order. The recording predates confirmations as
// data (no format version): its confirmations are read from the confirm
// action's old wording, by the one compatibility reader.
func TestReplayUserAnswersAsRecorded(t *testing.T) {
	ep, err := Load(t.Context(), filepath.Join("testdata", "legacy-confirm"))
	if err != nil {
		t.Fatal(err)
	}
	u := newReplayUser(ep)
	ctx := t.Context()
	if a, err := u.Ask(ctx, engine.Question{Text: "which cup?"}); err != nil || a != "the red one" {
		t.Errorf("ask: %q %v", a, err)
	}
	if _, err := u.Ask(ctx, engine.Question{Text: "again?"}); err == nil {
		t.Error("a question past the recording answered")
	}
	for _, want := range []string{"yes", `no, "later"`} {
		if a, err := u.Confirm(ctx, engine.Question{Kind: engine.QuestionConfirm}); err != nil || a != want {
			t.Errorf("confirm: %q %v, want %q", a, err, want)
		}
	}
	// A confirmation that could not be asked while recording fails the same
	// way in the replay.
	if _, err := u.Confirm(ctx, engine.Question{}); err == nil || err.Error() != "no controlling terminal to confirm on" {
		t.Errorf("confirm that found no terminal: %v", err)
	}
	if _, err := u.Confirm(ctx, engine.Question{}); !errors.Is(err, policies.ErrNoConfirmChannel) {
		t.Errorf("confirm with no channel: %v", err)
	}
	if _, err := u.Confirm(ctx, engine.Question{}); err == nil {
		t.Error("a confirmation past the recording answered")
	}
}

// A recording of this format keeps each confirmation as data on the hook's
// decision: the replay answers from it whatever the reason's wording, and
// a block reason that merely looks like an answer is not one.
func TestReplayReadsConfirmationsAsData(t *testing.T) {
	ep, err := replay.Parse("ep.jsonl", []byte(`{"kind":"task_start","text":"x","episode":{"spec_digest":"","format":2}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"confirm","reason":"Approved by the operator.","confirmation":{"by":"console","tool":"move","args":{"x":1},"hook":"ask_first","outcome":"approve","answer":"YES ","time":"2026-12-05T08:00:00Z"}}}
{"kind":"hook","tool":"move","hook":{"hook":"mimic","phase":"pre","decision":"block","reason":"not now (answer \"yes\")"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"Declined.","confirmation":{"by":"terminal","tool":"move","hook":"ask_first","outcome":"deny","answer":"later","time":"2026-12-05T08:00:01Z"}}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"Nobody to ask.","confirmation":{"tool":"move","hook":"ask_first","outcome":"no_channel","time":"2026-12-05T08:00:02Z"}}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"Could not ask.","confirmation":{"by":"terminal","tool":"move","hook":"ask_first","outcome":"failed","error":"no controlling terminal","time":"2026-12-05T08:00:03Z"}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(t.Context(), ep); err != nil {
		t.Fatal(err)
	}
	u := newReplayUser(ep)
	ctx := t.Context()
	for _, want := range []string{"YES ", "later"} {
		if a, err := u.Confirm(ctx, engine.Question{Kind: engine.QuestionConfirm}); err != nil || a != want {
			t.Errorf("confirm: %q %v, want %q", a, err, want)
		}
	}
	if _, err := u.Confirm(ctx, engine.Question{}); !errors.Is(err, policies.ErrNoConfirmChannel) {
		t.Errorf("confirm with no channel: %v", err)
	}
	if _, err := u.Confirm(ctx, engine.Question{}); err == nil || err.Error() != "no controlling terminal" {
		t.Errorf("confirm that could not ask: %v", err)
	}
	if a, err := u.Confirm(ctx, engine.Question{}); err == nil {
		t.Errorf("a confirmation past the recording answered %q", a)
	}
}

// A recorded confirmation the replay could not answer with is refused at
// load, naming the file and the line.
func TestLoadRefusesUnknownConfirmation(t *testing.T) {
	dir := t.TempDir()
	body := `{"kind":"task_start","text":"x","episode":{"spec_digest":"","format":2}}

{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"confirm","confirmation":{"tool":"move","hook":"ask_first","outcome":"maybe"}}}
`
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(t.Context(), dir)
	want := filepath.Join(dir, "events.jsonl") + `:3: hook event: hook.confirmation.outcome: "maybe" is not approve`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("load: %v, want %q", err, want)
	}
}
