package channels

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// lineRouter hands each line read from a terminal to exactly one waiter.
// Two kinds wait: a pending question (query_user) and the instruction reader
// (the interactive session's prompt and its /commands). While a question is
// pending the next line is its answer; otherwise it goes to the reader. A
// line read while nobody waits is held, in order, until someone does, and a
// waiter that gives up puts a line it was handed back in front, so no line
// is ever lost or delivered twice.
type lineRouter struct {
	mu       sync.Mutex
	queue    []lineResult
	question chan lineResult // the pending question's slot, nil when none
	reader   chan lineResult // the waiting reader's slot, nil when none
}

type lineResult struct {
	text string
	err  error     // end of input: kept in the queue for every later waiter
	at   time.Time // when the line was read (a confirmation ignores type-ahead)
}

// push queues one line read from the input and delivers what it can.
func (r *lineRouter) push(l lineResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = append(r.queue, l)
	r.deliverLocked()
}

// deliverLocked hands queued lines to waiters, a question first.
func (r *lineRouter) deliverLocked() {
	for len(r.queue) > 0 {
		var slot chan lineResult
		switch {
		case r.question != nil:
			slot, r.question = r.question, nil
		case r.reader != nil:
			slot, r.reader = r.reader, nil
		default:
			return
		}
		l := r.queue[0]
		if l.err == nil {
			r.queue = r.queue[1:]
		}
		slot <- l // buffered: never blocks under the lock
	}
}

// wait blocks until a line is handed to this waiter or ctx ends. question
// says which kind it is; one of each kind waits at a time.
func (r *lineRouter) wait(ctx context.Context, question bool) (lineResult, error) {
	slot := make(chan lineResult, 1)
	r.mu.Lock()
	own := &r.reader
	if question {
		own = &r.question
	}
	if *own != nil {
		r.mu.Unlock()
		return lineResult{}, errors.New("another read of this kind is already waiting")
	}
	*own = slot
	r.deliverLocked()
	r.mu.Unlock()
	select {
	case l := <-slot:
		return l, nil
	case <-ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if *own == slot {
		*own = nil // nothing was handed over
	} else if l := <-slot; l.err == nil {
		// A line arrived as we gave up: it belongs to the next waiter.
		r.queue = append([]lineResult{l}, r.queue...)
		r.deliverLocked()
	}
	return lineResult{}, fmt.Errorf("gave up waiting for a line: %w", context.Cause(ctx))
}
