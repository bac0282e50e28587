package mcpserve

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/thea-harness/thea/runlog"
)

// ImplicitInstruction is the instruction of a task a client's robot call
// opens without begin_task.
const ImplicitInstruction = "(task begun by an MCP client without begin_task)"

// taskRun is one task of the session, driven by the client.
type taskRun struct {
	instruction string
	implicit    bool
	cancel      context.CancelFunc
	// pending is the engine's decide request waiting for the client's next
	// call; nil while a call runs or after the task ended.
	pending *pendingTurn
	done    chan struct{} // closed when the task's stream ended

	mu     sync.Mutex
	events []runlog.Event
	report *runlog.Report
}

func (t *taskRun) add(ev runlog.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, ev)
	if ev.Kind == runlog.EventDone && ev.Done != nil {
		rep := *ev.Done
		t.report = &rep
	}
}

// since are the events from index i on, and the count now.
func (t *taskRun) since(i int) ([]runlog.Event, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]runlog.Event(nil), t.events[min(i, len(t.events)):]...), len(t.events)
}

func (t *taskRun) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.events)
}

func (t *taskRun) finalReport() runlog.Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.report == nil {
		return runlog.Report{Reason: runlog.DoneError, Error: "the task ended without a report"}
	}
	return *t.report
}

// beginTask starts a task and waits for its first decision. It returns the
// task's report when the task ended before deciding anything (it could not
// start, the session is busy). Called with the turn held.
func (s *Server) beginTask(ctx context.Context, instruction string, implicit bool) (*runlog.Report, error) {
	tctx, cancel := context.WithCancel(s.base)
	t := &taskRun{instruction: instruction, implicit: implicit, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		defer cancel()
		for ev := range s.h.RunStream(tctx, instruction) {
			t.add(ev)
		}
	}()
	s.task = t
	ended, err := s.next(ctx, t)
	if err != nil {
		return nil, err
	}
	if ended {
		s.task = nil
		rep := t.finalReport()
		return &rep, nil
	}
	return nil, nil
}

// next waits for the task's next decision (setting t.pending) or its end
// (ended true). ctx ending first is an error: the call that waited gave up.
func (s *Server) next(ctx context.Context, t *taskRun) (ended bool, err error) {
	select {
	case pt := <-s.d.turns:
		t.pending = pt
		return false, nil
	case <-t.done:
		return true, nil
	case <-ctx.Done():
		return false, fmt.Errorf("waiting for the session: %w", ctx.Err())
	}
}

// endTask answers the task's pending decision with no tool call, so the
// engine ends it with text as its report (DoneFinal), and waits for the
// end: consolidation and tool experience are written before done. Called
// with the turn held.
func (s *Server) endTask(ctx context.Context, text string) runlog.Report {
	t := s.task
	s.task = nil
	if t.pending != nil {
		t.pending.reply <- modelText(text)
		t.pending = nil
	} else {
		t.cancel()
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		t.cancel()
		<-t.done
	}
	return t.finalReport()
}

// touch restarts the idle clock of an implicit task after a call.
func (s *Server) touch() {
	if s.opts.Idle < 0 {
		return
	}
	s.idleMu.Lock()
	defer s.idleMu.Unlock()
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	s.idleGen++
	gen := s.idleGen
	s.idleTimer = time.AfterFunc(s.opts.Idle, func() { s.idleEnd(gen) })
}

func (s *Server) stopIdle() {
	s.idleMu.Lock()
	defer s.idleMu.Unlock()
	if s.idleTimer != nil {
		s.idleTimer.Stop()
		s.idleTimer = nil
	}
}

// idleEnd ends an implicit task nobody called for Idle. A call in the
// session meanwhile restarts the clock when it ends.
func (s *Server) idleEnd(gen int) {
	select {
	case s.turn <- struct{}{}:
	default:
		return // a call runs; it restarts the clock
	}
	defer s.release()
	s.idleMu.Lock()
	stale := gen != s.idleGen
	s.idleMu.Unlock()
	if stale {
		return // a call came after this clock started
	}
	if s.task == nil || !s.task.implicit || s.task.pending == nil {
		return
	}
	rep := s.endTask(s.base, fmt.Sprintf("The MCP client made no call for %s; the task it began without begin_task ended.", s.opts.Idle))
	s.log.Info("idle task ended", "reason", rep.Reason)
}
