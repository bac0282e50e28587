package channels

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
)

// The instruction reader and query_user share one input: while a question
// is pending the next line is its answer, before and after it lines go to
// the reader, and none is lost or delivered twice.
func TestTerminalRoutesAnswersAndCommands(t *testing.T) {
	in, feed := io.Pipe()
	t.Cleanup(func() { _ = feed.Close() })
	out := &lockedWriter{}
	term := NewTerminal(in, out)
	ctx := t.Context()

	// The reader waits (an interactive session's prompt) while a question
	// is asked: the typed line answers the question, not the reader.
	readerGot := make(chan string, 3)
	go func() {
		for {
			l, err := term.ReadLine(ctx)
			if err != nil {
				close(readerGot)
				return
			}
			readerGot <- l
		}
	}()
	write(t, feed, "/replan before\n")
	if got := <-readerGot; got != "/replan before" {
		t.Fatalf("reader got %q", got)
	}
	answered := make(chan string, 1)
	go func() {
		a, err := term.Ask(ctx, engine.Question{Text: "Which?", Choices: []string{"red", "blue"}})
		if err != nil {
			a = "error: " + err.Error()
		}
		answered <- a
	}()
	waitFor(t, func() bool { return strings.Contains(out.String(), "? Which?") })
	write(t, feed, "2\n")
	if got := <-answered; got != "blue" {
		t.Fatalf("answer = %q, want blue", got)
	}
	write(t, feed, "/stop\n")
	if got := <-readerGot; got != "/stop" {
		t.Fatalf("after the answer the reader got %q", got)
	}
	_ = feed.Close()
	if _, ok := <-readerGot; ok {
		t.Fatal("reader got a line after the end of input")
	}
	if _, err := term.Ask(ctx, engine.Question{Text: "more?"}); err == nil {
		t.Fatal("an answer after the end of input")
	}
}

// A reader that gives up at the moment a line arrives hands it on.
func TestRouterGiveUpKeepsLine(t *testing.T) {
	var r lineRouter
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := r.wait(ctx, false); done <- err }()
	waitFor(t, func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.reader != nil })
	// Deliver under the lock while the waiter is about to give up.
	r.mu.Lock()
	cancel()
	r.queue = append(r.queue, lineResult{text: "kept"})
	r.deliverLocked()
	r.mu.Unlock()
	if err := <-done; err == nil {
		// The select took the line before noticing the cancel: delivered once.
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.queue) != 0 {
			t.Fatalf("the line was delivered and kept: %+v", r.queue)
		}
		return
	} else if !errors.Is(err, context.Canceled) {
		t.Fatalf("give-up error %v", err)
	}
	l, err := r.wait(t.Context(), true)
	if err != nil || l.text != "kept" {
		t.Fatalf("the line given up was lost: next = %+v, %v", l, err)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func write(t *testing.T, w io.Writer, s string) {
	t.Helper()
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls a condition with a generous bound (not a timing assertion:
// it only keeps a broken test from hanging).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(testtime.Scale(10 * time.Second)); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
	}
}
