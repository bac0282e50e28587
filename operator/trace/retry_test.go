package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
)

// A retried model call shows with --verbose in both renderers: the attempt,
// the HTTP status, the provider's message (escaped) and the wait; without
// --verbose it stays in the run log.
func TestRetriesShowWhenVerbose(t *testing.T) {
	evs := []runlog.Event{
		{Kind: runlog.EventModelRetry, Turn: 2, Retry: &model.Retry{Provider: "openai", Purpose: model.PurposeDecide, Attempt: 1, Status: 429,
			WaitMS: 7000, RetryAfter: true, Message: "Rate limit reached\x1b[31m for gpt-4o"}},
		{Kind: runlog.EventModelRetry, Turn: 2, Retry: &model.Retry{Provider: "openai", Purpose: model.PurposeEvaluate, Attempt: 2,
			WaitMS: 1250, Message: "no answer within 1m0s"}},
	}
	want := []string{
		`openai attempt 1 failed: HTTP 429: Rate limit reached\x1b[31m for gpt-4o; retrying in 7s (the server's Retry-After)`,
		`openai attempt 2 failed (evaluate call): no answer within 1m0s; retrying in 1.25s`,
	}
	for _, verbose := range []bool{false, true} {
		var plain, live bytes.Buffer
		w, l := trace.New(&plain, verbose), trace.NewLive(&live, verbose)
		for _, ev := range evs {
			if err := w.Write(ev); err != nil {
				t.Fatal(err)
			}
			if err := l.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		for name, out := range map[string]string{"trace": plain.String(), "live view": ownCodes.Replace(live.String())} {
			for _, line := range want {
				if got := strings.Contains(out, line); got != verbose {
					t.Errorf("%s (verbose %v): has %q: %v\n%s", name, verbose, line, got, out)
				}
			}
			if strings.Contains(out, "\x1b[31m for") {
				t.Errorf("%s: the provider's control sequence reached the terminal", name)
			}
		}
		if verbose && !strings.HasPrefix(plain.String(), "turn 2   retry      openai attempt 1") {
			t.Errorf("trace line %q", plain.String())
		}
	}
}
