package channels

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/termesc"
)

// Terminal asks questions on an io.Writer and reads answers line by line from
// an io.Reader. A number answering a question with choices picks that choice.
// The same input may also carry a session's instructions (ReadLine): while a
// question is pending, the next line is its answer.
type Terminal struct {
	ask    sync.Mutex // one question at a time
	mu     sync.Mutex // one write at a time: questions, notifications, the session's text
	out    io.Writer
	router lineRouter
	once   sync.Once
	in     io.Reader
	tty    string // the controlling terminal, for Confirm
}

var _ engine.UserChannel = (*Terminal)(nil)

// NewTerminal makes a terminal channel over in and out.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{in: in, out: out, tty: ControllingTerminal}
}

// WithTTY sets the terminal Confirm opens (ControllingTerminal by default);
// tests point it at a pseudo-terminal or at nothing.
func (t *Terminal) WithTTY(path string) *Terminal {
	t.tty = path
	return t
}

// startReader reads lines in one goroutine for the channel's lifetime, so Ask
// can give up when its context ends without losing the reader's position.
func (t *Terminal) startReader() {
	t.once.Do(func() {
		go func() {
			// A Reader rather than a Scanner: a line longer than the
			// Scanner's buffer would end the channel for good.
			r := bufio.NewReader(t.in)
			var err error
			for err == nil {
				var line string
				line, err = r.ReadString('\n')
				if err == nil || line != "" {
					t.router.push(lineResult{text: strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), at: time.Now()})
				}
			}
			t.router.push(lineResult{err: err})
		}()
	})
}

// Ask prints the question (numbered choices, attached refs) and waits for a line.
func (t *Terminal) Ask(ctx context.Context, q engine.Question) (string, error) {
	t.ask.Lock()
	defer t.ask.Unlock()
	t.startReader()
	var b strings.Builder
	fmt.Fprintf(&b, "? %s\n", termesc.Escape(q.Text)) // model text: terminal-safe
	for i, c := range q.Choices {
		fmt.Fprintf(&b, "  %d) %s\n", i+1, termesc.Escape(c))
	}
	switch {
	case len(q.Candidates) > 0:
		b.WriteString("  about:\n")
		for _, c := range q.Candidates {
			fmt.Fprintf(&b, "    %s\n", termesc.Escape(c.Line))
		}
	case len(q.Refs) > 0:
		fmt.Fprintf(&b, "  (about: %s)\n", termesc.Escape(strings.Join(q.Refs, ", ")))
	}
	b.WriteString("> ")
	if err := t.Printf("%s", b.String()); err != nil {
		return "", fmt.Errorf("writing the question: %w", err)
	}
	l, err := t.router.wait(ctx, true)
	if err != nil {
		return "", fmt.Errorf("terminal: no answer: %w", err)
	}
	if l.err != nil {
		return "", fmt.Errorf("terminal: reading the answer: %w", l.err)
	}
	return pickChoice(strings.TrimSpace(l.text), q.Choices), nil
}

// ReadLine waits for the next line that is not the answer to a question:
// the interactive session's instructions and commands. It returns io.EOF
// (wrapped) at the end of input.
func (t *Terminal) ReadLine(ctx context.Context) (string, error) {
	t.startReader()
	l, err := t.router.wait(ctx, false)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	if l.err != nil {
		return "", fmt.Errorf("terminal: reading a line: %w", l.err)
	}
	return l.text, nil
}

// Printf writes the session's own text (a prompt, a command's reply) under
// the lock questions and notifications take, so it never splits one of them.
func (t *Terminal) Printf(format string, a ...any) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := fmt.Fprintf(t.out, format, a...); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}

// pickChoice maps "2" to the second choice; anything else is the answer as typed.
func pickChoice(answer string, choices []string) string {
	if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(choices) {
		return choices[n-1]
	}
	return answer
}

// Notify prints the message and returns at once.
func (t *Terminal) Notify(_ context.Context, text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := fmt.Fprintf(t.out, "i %s\n", termesc.Escape(text)); err != nil {
		return fmt.Errorf("terminal: writing a notification: %w", err)
	}
	return nil
}
