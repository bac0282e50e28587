package engine_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A secret shorter than 8 characters is still redacted, with a warning at
// session start that names the variable and never the value, and says that
// its encodings are not redacted.
func TestShortSecretWarns(t *testing.T) {
	t.Setenv("THEA_SHORT", "abc")
	t.Setenv("THEA_LONG", "long-enough-secret")
	f := newFixture(t, toolResp("abc and long-enough-secret"))
	f.spec.RunLog = schema.RunLog{SecretEnv: []string{"THEA_SHORT", "THEA_LONG", "THEA_UNSET"}}
	var logs bytes.Buffer
	opts := f.options(t)
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	h, err := engine.New(t.Context(), f.spec, opts)
	must(t, err)
	defer h.Close()
	rep, err := h.Run(t.Context(), "go")
	must(t, err)
	if rep.Text != "[redacted] and [redacted]" {
		t.Errorf("report %q", rep.Text)
	}
	if out := logs.String(); !strings.Contains(out, "shorter than 8 characters") || !strings.Contains(out, "env=THEA_SHORT") ||
		!strings.Contains(out, "encodings are not redacted") ||
		strings.Contains(out, "THEA_LONG") || strings.Contains(out, "abc") {
		t.Errorf("warning: %s", out)
	}
}

// recordingUser keeps what the person was shown.
type recordingUser struct {
	mu    sync.Mutex
	shown []string
}

func (u *recordingUser) Ask(_ context.Context, q engine.Question) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.shown = append(u.shown, q.Text)
	u.shown = append(u.shown, q.Choices...)
	return q.Choices[1], nil // the person picks the second choice as shown
}

func (u *recordingUser) Notify(_ context.Context, text string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.shown = append(u.shown, text)
	return nil
}

// The person's terminal is reached through the user channel, not the bus:
// it is redacted the same way, and a picked choice maps back to the
// original.
func TestUserChannelIsRedacted(t *testing.T) {
	const secret = "sk-user-channel-4242"
	t.Setenv("THEA_USER_KEY", secret)
	f := newFixture(t, toolResp("", call("tell", `{}`)), toolResp("finished"))
	f.spec.RunLog = schema.RunLog{SecretEnv: []string{"THEA_USER_KEY"}}
	var answer string
	f.addInProcessTool("core", "tell", func(ctx context.Context, h *engine.CallHandle, _ map[string]any) runlog.Envelope {
		must(t, h.User.Notify(ctx, "the key is "+secret))
		a, err := h.User.Ask(ctx, engine.Question{Text: "use " + secret + "?", Choices: []string{"no", "yes, " + secret}})
		must(t, err)
		answer = a
		return runlog.Envelope{Success: true}
	})
	u := &recordingUser{}
	opts := f.options(t)
	opts.User = u
	h, err := engine.New(t.Context(), f.spec, opts)
	must(t, err)
	defer h.Close()
	_, err = h.Run(t.Context(), "go")
	must(t, err)
	if len(u.shown) != 4 {
		t.Fatalf("shown %q", u.shown)
	}
	for _, s := range u.shown {
		if strings.Contains(s, secret) {
			t.Errorf("the person was shown %q", s)
		}
	}
	if answer != "yes, "+secret {
		t.Errorf("answer %q, want the original choice", answer)
	}
}
