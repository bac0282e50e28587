package engine

import "context"

// CallChannelNamer is a confirmation channel whose answerer depends on the
// call: an MCP face asks the client that made the call when it can, and the
// console otherwise, so the run log names the one that answered.
type CallChannelNamer interface {
	ChannelNameFor(ctx context.Context) string
}

// ChannelNameFor is who answers c's confirmation for the call ctx belongs
// to: c's ChannelNameFor when it has one, else ChannelName(c).
func ChannelNameFor(ctx context.Context, c any) string {
	if n, ok := c.(CallChannelNamer); ok {
		return n.ChannelNameFor(ctx)
	}
	return ChannelName(c)
}

// ChannelNameFor is the wrapped channel's (see CallChannelNamer).
func (u timedUser) ChannelNameFor(ctx context.Context) string {
	return ChannelNameFor(ctx, u.UserChannel)
}

// ChannelNameFor is the wrapped channel's (see CallChannelNamer).
func (u redactingUser) ChannelNameFor(ctx context.Context) string {
	return ChannelNameFor(ctx, u.inner)
}
