package episode

import (
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/replay"
)

// A replay answers the model's questions and the confirm hooks with what
// was recorded, each in order.
func TestReplayUserAnswersAsRecorded(t *testing.T) {
	ep, err := replay.Parse("ep.jsonl", []byte(`{"kind":"task_start","text":"x"}
{"kind":"question","tool":"query_user","text":"which cup?","args":{"question":"which cup?","answer":"the red one"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"confirm","reason":"the user confirmed"}}
{"kind":"hook","tool":"move","hook":{"hook":"ask_first","phase":"pre","decision":"block","reason":"not now (answer \"no, \\\"later\\\"\")"}}
{"kind":"hook","tool":"move","hook":{"hook":"boxed_in","phase":"pre","decision":"block","reason":"no clearance"}}
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
	if _, err := u.Confirm(ctx, engine.Question{}); err == nil {
		t.Error("a confirmation past the recording answered")
	}
}
