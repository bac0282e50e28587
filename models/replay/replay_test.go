package replay_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
)

const episode = `{"kind":"task_start","turn":0,"text":"tidy up","episode":{"spec_digest":"sha256:ab","seed":"7"}}
{"kind":"model_call","turn":1,"model_call":{"purpose":"decide","text":"go","tool_calls":[{"id":"c1","name":"move","arguments":"{\"d\":1}"}],"usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2}}}
{"kind":"model_call","turn":1,"model_call":{"purpose":"evaluate","text":"{\"status\":\"success\"}","usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0}}}
{"kind":"model_call","turn":2,"model_call":{"purpose":"decide","tool_calls":[{"name":"move","arguments":"{not json"}],"usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0}}}
{"kind":"model_call","turn":3,"model_call":{"purpose":"decide","error":"provider: 503","usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0}}}
`

// Responses come back per purpose in recorded order, tool-call arguments
// as the model wrote them (malformed ones too), a recorded error as an
// error, and a request past the recording fails with ErrExhausted.
func TestReplayFeedsResponsesPerPurpose(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ep", runlog.EventsFile), []byte(episode), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := replay.New(replay.Config{Script: "ep"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	ev, err := m.Generate(ctx, model.Request{Purpose: model.PurposeEvaluate})
	if err != nil || ev.Text != `{"status":"success"}` {
		t.Fatalf("evaluate: %+v %v", ev, err)
	}
	r1, err := m.Generate(ctx, model.Request{})
	if err != nil || r1.Text != "go" || r1.ToolCalls[0].ID != "c1" || string(r1.ToolCalls[0].Arguments) != `{"d":1}` || r1.Usage.InputTokens != 10 {
		t.Fatalf("first decide: %+v %v", r1, err)
	}
	r2, err := m.Generate(ctx, model.Request{Purpose: model.PurposeDecide})
	if err != nil || r2.ToolCalls[0].RawArguments() != "{not json" {
		t.Fatalf("malformed arguments not kept: %+v %v", r2, err)
	}
	if _, err := m.Generate(ctx, model.Request{}); err == nil || !strings.Contains(err.Error(), "provider: 503") {
		t.Fatalf("recorded error: %v", err)
	}
	if _, err := m.Generate(ctx, model.Request{}); !errors.Is(err, replay.ErrExhausted) || !strings.Contains(err.Error(), "3 replayed") {
		t.Fatalf("past the recording: %v", err)
	}
	if _, err := m.Generate(ctx, model.Request{Purpose: model.PurposeCompact}); !errors.Is(err, replay.ErrExhausted) {
		t.Fatalf("compact never recorded: %v", err)
	}
	if _, err := replay.New(replay.Config{Script: "missing"}, dir); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing episode: %v", err)
	}
	if _, err := replay.New(replay.Config{}, dir); err == nil {
		t.Error("no script accepted")
	}
}
