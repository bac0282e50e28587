package engine

import (
	"context"

	"github.com/thea-harness/thea/engine/redact"
)

// redactingUser is the user channel tools and hooks reach. The person's
// terminal is one more place a back-end's echo must not reach, so what it
// is shown is redacted like every event.
type redactingUser struct{ h *Harness }

// user returns the session's user channel behind redaction; nil when the
// caller supplied none.
func (h *Harness) user() UserChannel {
	if h.opts.User == nil {
		return nil
	}
	return redactingUser{h}
}

func (u redactingUser) Ask(ctx context.Context, q Question) (string, error) {
	shown := redact.Value(u.h.redactor, q)
	ans, err := u.h.opts.User.Ask(ctx, shown)
	// A choice picked by number comes back as shown: map it to the original.
	for i, c := range shown.Choices {
		if ans == c && c != q.Choices[i] {
			ans = q.Choices[i]
			break
		}
	}
	return ans, err
}

func (u redactingUser) Notify(ctx context.Context, text string) error {
	return u.h.opts.User.Notify(ctx, u.h.redactor.String(text))
}
