package engine

import (
	"context"
	"fmt"
	"time"
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
