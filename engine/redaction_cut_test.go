package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A result over tool_result_max_chars, and a failure reason over the Task
// Notes line, hold a secret where the cut falls: each is redacted before it
// is cut, so no piece of the secret (which no later redaction would
// recognise) reaches a request.
func TestSecretSplitByACutIsRedacted(t *testing.T) {
	t.Setenv("THEA_RED_TOKEN", redToken)
	// Back to back, so that every cut falls inside a copy.
	many := strings.Repeat(redToken, 60)
	f := newFixture(t, toolResp("", call("vault", `{"open":true}`)), toolResp("", call("vault", `{"open":false}`)), toolResp("done"))
	f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs", SecretEnv: []string{"THEA_RED_TOKEN"}}
	f.spec.Context.Compaction.ToolResultMaxChars = 301
	f.addTool("core", "vault", func(_ context.Context, args map[string]any) runlog.Envelope {
		if args["open"] == true {
			return runlog.Envelope{Success: true, Value: map[string]any{"codes": many}}
		}
		return runlog.Failure("jammed: " + many)
	})
	if rep, err := f.harness(t).Run(t.Context(), "open the vault"); err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("run: %+v, %v", rep, err)
	}
	reqs := f.decide.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d decide requests, want 3", len(reqs))
	}
	last := requestText(reqs[2])
	if !strings.Contains(last, `"codes":"[redacted][redacted]`) || !strings.Contains(last, "vault: failed: jammed: [redacted]") {
		t.Fatalf("the last request lacks the redacted result or note:\n%s", last)
	}
	rest := strings.ReplaceAll(last, "[redacted]", "")
	for _, piece := range []string{redToken[:4], redToken[len(redToken)-4:], "redact-", "5e5e"} {
		if i := strings.Index(rest, piece); i >= 0 {
			t.Errorf("the last request holds %q, a piece of the secret: …%s…", piece, rest[max(i-60, 0):min(i+60, len(rest))])
		}
	}
}
