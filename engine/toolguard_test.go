package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// blockingTool ignores its context; the guard must still return.
type blockingTool struct {
	calls   int
	release chan struct{}
}

func (b *blockingTool) Def() model.ToolDef {
	return model.ToolDef{Name: "stuck", InputSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}
}
func (b *blockingTool) Call(context.Context, json.RawMessage) runlog.Envelope {
	b.calls++
	<-b.release
	return runlog.Envelope{Success: true}
}

func TestGuard(t *testing.T) {
	inner := &blockingTool{release: make(chan struct{})}
	defer close(inner.release)
	g, err := GuardTool(inner, schema.ToolContract{Timeout: schema.Duration(10 * time.Millisecond)}, time.Hour, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{}`, `missing required argument "n"`},
		{`{"n":"3"}`, `argument "n" must be integer, got string`},
		{`{"n":1,"m":2}`, `unknown argument "m" (accepted: n)`},
		{`[1]`, "must be a JSON object"},
		{`{"n":`, "not valid JSON"},
	} {
		wantFailure(t, g.Call(t.Context(), []byte(tc.args)), tc.want)
	}
	if inner.calls != 0 {
		t.Fatalf("invalid arguments reached the tool %d times", inner.calls)
	}
	wantFailure(t, g.Call(t.Context(), []byte(`{"n":1}`)), "stuck timed out after 10ms")

	_, err = GuardTool(&schemaTool{`{"type":"object","properties":{"n":{"type":"nope"}}}`}, schema.ToolContract{}, 0, 1<<20)
	if err == nil || !strings.Contains(err.Error(), `tool "bad"`) {
		t.Fatalf("bad schema: %v", err)
	}
}

type schemaTool struct{ s string }

func (s *schemaTool) Def() model.ToolDef {
	return model.ToolDef{Name: "bad", InputSchema: []byte(s.s)}
}
func (s *schemaTool) Call(context.Context, json.RawMessage) runlog.Envelope {
	return runlog.Failure("unused")
}

func wantFailure(t *testing.T, env runlog.Envelope, contains ...string) {
	t.Helper()
	if env.Success {
		t.Fatalf("want failure, got success %v", env.Value)
	}
	for _, c := range contains {
		if !strings.Contains(env.Reason, c) {
			t.Fatalf("reason %q does not contain %q", env.Reason, c)
		}
	}
}
