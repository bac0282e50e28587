package episode

import (
	"errors"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/policies"
)

// A replay answers the model's questions and the confirm hooks with what
// was recorded, each in order.
func TestReplayUserAnswersAsRecorded(t *testing.T) {
	ep, err := replay.Parse("ep.jsonl", []byte(`{"kind":"task_start","text":"x"}
{"kind":"question","tool":"query_user","text":"which cup?","args":{"question":"which cup?","answer":"the red one"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"confirm","reason":"the user confirmed"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"not now (answer \"no, \\\"later\\\"\")"}}
{"kind":"hook","tool":"move","hook":{"hook":"boxed_in","phase":"pre","decision":"block","reason":"no clearance"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"hook \"ask_first\": asking for confirmation failed: no controlling terminal to confirm on"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"hook \"ask_first\": the call needs the user's confirmation and no confirmation channel is available (answers come only from the controlling terminal, a script channel or a server's confirm endpoint, never from the instructions)"}}
`))
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
