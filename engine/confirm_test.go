package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

type confirmingUser struct{ asked, confirmed int }

func (u *confirmingUser) Ask(context.Context, engine.Question) (string, error) {
	u.asked++
	return "an answer", nil
}
func (u *confirmingUser) Notify(context.Context, string) error { return nil }
func (u *confirmingUser) Confirm(context.Context, engine.Question) (string, error) {
	u.confirmed++
	return "yes", nil
}

type askingUser struct{}

func (askingUser) Ask(context.Context, engine.Question) (string, error) { return "yes", nil }
func (askingUser) Notify(context.Context, string) error                 { return nil }

// The session's wrappers (user.timeout, redaction) keep a channel's own
// confirmation path, and give none to a channel without one: a confirm hook
// then blocks instead of reading an answer from the instruction stream.
func TestPolicyGetsTheChannelsConfirmation(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Minute} {
		f := newFixture(t)
		f.spec.User.Timeout = schema.Duration(timeout)
		opts := f.options(t)
		u := &confirmingUser{}
		opts.User = u
		var got engine.UserChannel
		opts.Policy = func(env engine.PolicyEnv) (engine.Policy, error) { got = env.User; return f.policy, nil }
		h, err := engine.New(t.Context(), f.spec, opts)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := got.(engine.Confirmer)
		if !ok {
			t.Fatalf("timeout %s: the policy's user channel lost Confirm", timeout)
		}
		if ans, err := c.Confirm(t.Context(), engine.Question{Text: "go?"}); err != nil || ans != "yes" || u.confirmed != 1 || u.asked != 0 {
			t.Fatalf("timeout %s: Confirm = %q, %v; confirmed %d, asked %d", timeout, ans, err, u.confirmed, u.asked)
		}
		_ = h.Close()

		opts.User = askingUser{}
		if _, err := engine.New(t.Context(), f.spec, opts); err != nil {
			t.Fatal(err)
		}
		if c, ok := got.(engine.Confirmer); ok {
			if ans, err := c.Confirm(t.Context(), engine.Question{Text: "go?"}); err == nil {
				t.Fatalf("timeout %s: a channel without Confirm confirmed %q", timeout, ans)
			}
		}
	}
}
