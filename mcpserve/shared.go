package mcpserve

import (
	"context"
	"sync"
)

// The MCP face shares its session with serve's task API under thea serve
// --mcp: the tasks a client begins are decided by the client (Decider), the
// API's by the spec's model, and the two never run at once (the Lease).

// clientTaskKey marks the contexts of the tasks an MCP client drives.
type clientTaskKey struct{}

// clientTasks marks ctx as the parent of the tasks the face begins.
func clientTasks(ctx context.Context) context.Context {
	return context.WithValue(ctx, clientTaskKey{}, true)
}

// Decides implements engine.TaskDecider: the client decides only the tasks
// the face began; another face's task (serve's API) keeps the spec's model.
func (d *Decider) Decides(ctx context.Context) bool {
	on, _ := ctx.Value(clientTaskKey{}).(bool)
	return on
}

// caller is the request of the robot call the face is serving, so a
// confirm hook, which runs on the task's goroutine, asks the client that
// made the call (elicitation needs that request's session).
type caller struct {
	mu  sync.Mutex
	ctx context.Context
}

// serving records ctx as the call being served until the returned func.
func (c *caller) serving(ctx context.Context) func() {
	c.mu.Lock()
	c.ctx = ctx
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.ctx = nil
		c.mu.Unlock()
	}
}

// current is the request being served, if any.
func (c *caller) current() (context.Context, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ctx, c.ctx != nil
}
