package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine/redact"
)

// timedUser bounds every question by the spec's user.timeout: a person
// answers on their own time, so the channel, not the tool's timeout, decides
// how long query_user waits.
type timedUser struct {
	UserChannel
	timeout time.Duration
}

// withTimeout wraps uc so Ask gives up after d; zero waits until cancelled.
func withTimeout(uc UserChannel, d time.Duration) UserChannel {
	if uc == nil || d <= 0 {
		return uc
	}
	return timedUser{UserChannel: uc, timeout: d}
}

// Ask implements UserChannel.
func (u timedUser) Ask(ctx context.Context, q Question) (string, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, u.timeout, fmt.Errorf("no answer within user.timeout (%s)", u.timeout))
	defer cancel()
	ans, err := u.UserChannel.Ask(ctx, q)
	if err != nil && ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	return ans, err
}

// errNoConfirm: the channel has no way to take a confirmation apart from
// the instruction stream, so a confirm hook blocks.
var errNoConfirm = errors.New("this user channel cannot take confirmations (only the controlling terminal, a script channel or a server's confirm endpoint can)")

// Confirm forwards a confirmation within user.timeout when the channel
// can take one (Confirmer), and fails closed otherwise.
func (u timedUser) Confirm(ctx context.Context, q Question) (string, error) {
	c, ok := u.UserChannel.(Confirmer)
	if !ok {
		return "", errNoConfirm
	}
	ctx, cancel := context.WithTimeoutCause(ctx, u.timeout, fmt.Errorf("no confirmation within user.timeout (%s)", u.timeout))
	defer cancel()
	ans, err := c.Confirm(ctx, q)
	if err != nil && ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	return ans, err
}

// ChannelName is the wrapped channel's (see ChannelNamer).
func (u timedUser) ChannelName() string { return ChannelName(u.UserChannel) }

// ChannelName is the wrapped channel's (see ChannelNamer).
func (u redactingUser) ChannelName() string { return ChannelName(u.inner) }

// Confirm forwards a confirmation, redacted like a question.
func (u redactingUser) Confirm(ctx context.Context, q Question) (string, error) {
	c, ok := u.inner.(Confirmer)
	if !ok {
		return "", errNoConfirm
	}
	shown := redact.Value(u.h.redactor, q)
	return c.Confirm(ctx, shown)
}

// redactingUser is the user channel tools and hooks reach. The person's
// terminal is one more place a back-end's echo must not reach, so what it
// is shown is redacted like every event.
type redactingUser struct {
	h     *Harness
	inner UserChannel
}

// withRedaction wraps uc so what the person is shown is redacted.
func (h *Harness) withRedaction(uc UserChannel) UserChannel {
	if uc == nil {
		return nil
	}
	return redactingUser{h: h, inner: uc}
}

func (u redactingUser) Ask(ctx context.Context, q Question) (string, error) {
	shown := redact.Value(u.h.redactor, q)
	ans, err := u.inner.Ask(ctx, shown)
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
	return u.inner.Notify(ctx, u.h.redactor.String(text))
}
