package operator

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// task is a task in flight and the operator's handles on it.
type task struct {
	cancel  context.CancelFunc
	stopped atomic.Bool
	done    chan runlog.DoneReason // the reason it ended, once

	mu       sync.Mutex
	revision string // a /replan not yet taken by the engine
	revised  bool
}

// stop ends the task safely: should_cancel holds from now on, and the
// running tool's context is cancelled (an MCP back-end receives
// notifications/cancelled, its deployment-owned interrupt path).
func (t *task) stop() {
	t.stopped.Store(true)
	t.cancel()
}

// revise queues an instruction revision for the engine's poll_replan.
func (t *task) revise(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.revision, t.revised = text, true
}

func (t *task) poll() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, ok := t.revision, t.revised
	t.revision, t.revised = "", false
	return text, ok
}

// start runs one task in its own goroutine, streaming its events to the view.
func (c *Console) start(ctx context.Context, instruction string) *task {
	ctx, cancel := context.WithCancel(ctx)
	t := &task{cancel: cancel, done: make(chan runlog.DoneReason, 1)}
	go func() {
		defer cancel()
		reason := runlog.DoneError
		var werr error
		for ev := range c.Session.RunStream(ctx, instruction, engine.WithShouldCancel(t.stopped.Load), engine.WithPollReplan(t.poll)) {
			if err := c.View.Write(ev); err != nil && werr == nil {
				werr = err
			}
			if ev.Kind == runlog.EventDone && ev.Done != nil {
				reason = ev.Done.Reason
			}
		}
		if err := c.View.Close(); err != nil && werr == nil {
			werr = err
		}
		if werr != nil {
			c.say("thea: writing the trace: %v", werr)
		}
		t.done <- reason
	}()
	return t
}
