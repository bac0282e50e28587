package channels

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
)

// ControllingTerminal is where a terminal channel reads confirmations.
const ControllingTerminal = "/dev/tty"

// Confirm asks a confirm hook's question on the controlling terminal, never
// on the instruction stream: with instructions piped in, a "yes" among them
// cannot confirm a call. When the channel's input is itself the terminal, the
// answer is the first line typed after the prompt (type-ahead is discarded).
// Without a controlling terminal it fails, and the confirm hook blocks.
func (t *Terminal) Confirm(ctx context.Context, q engine.Question) (string, error) {
	t.ask.Lock()
	defer t.ask.Unlock()
	if f, ok := t.in.(*os.File); ok && isTerminal(f.Fd()) {
		return t.confirmShared(ctx, q, f)
	}
	return t.confirmTTY(ctx, q)
}

func prompt(q engine.Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "! confirm: %s", q.Text)
	if len(q.Choices) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(q.Choices, "/"))
	}
	b.WriteString("\n> ")
	return b.String()
}

// confirmShared reads the answer from the channel's own input, which is the
// terminal: lines read before the prompt are type-ahead and discarded.
func (t *Terminal) confirmShared(ctx context.Context, q engine.Question, f *os.File) (string, error) {
	t.startReader()
	if err := flushInput(f.Fd()); err != nil {
		return "", fmt.Errorf("terminal: discarding type-ahead: %w", err)
	}
	asked := time.Now()
	if _, err := io.WriteString(t.out, prompt(q)); err != nil {
		return "", fmt.Errorf("terminal: writing the confirmation: %w", err)
	}
	for {
		// A pending confirmation takes the next typed line ahead of the
		// session's command reader.
		l, err := t.router.wait(ctx, true)
		if err != nil {
			return "", fmt.Errorf("terminal: no confirmation: %w", err)
		}
		if l.err != nil {
			return "", fmt.Errorf("terminal: reading the confirmation: %w", l.err)
		}
		if l.at.Before(asked) {
			continue // typed before the question was asked
		}
		return pickChoice(strings.TrimSpace(l.text), q.Choices), nil
	}
}

// confirmTTY opens the controlling terminal for one answer.
func (t *Terminal) confirmTTY(ctx context.Context, q engine.Question) (string, error) {
	tty, err := os.OpenFile(t.tty, os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("no controlling terminal to confirm on (%w): instructions are never read as confirmations", err)
	}
	// Closing the terminal ends a pending read when ctx ends.
	stop := context.AfterFunc(ctx, func() { _ = tty.Close() })
	defer func() {
		if stop() {
			_ = tty.Close() // the read is over; nothing is left to report
		}
	}()
	if err := flushInput(tty.Fd()); err != nil {
		return "", fmt.Errorf("terminal %s: discarding type-ahead: %w", t.tty, err)
	}
	if _, err := io.WriteString(tty, prompt(q)); err != nil {
		return "", fmt.Errorf("terminal %s: writing the confirmation: %w", t.tty, err)
	}
	line, err := bufio.NewReader(tty).ReadString('\n')
	if ctx.Err() != nil {
		return "", fmt.Errorf("terminal: no confirmation: %w", ctx.Err())
	}
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		return "", fmt.Errorf("terminal %s: reading the confirmation: %w", t.tty, err)
	}
	return pickChoice(strings.TrimSpace(line), q.Choices), nil
}

// Confirm answers a confirm hook from the script, like a question: tests and
// demos confirm or refuse calls deterministically.
func (s *Script) Confirm(ctx context.Context, q engine.Question) (string, error) {
	return s.Ask(ctx, q)
}

// ChannelName names the terminal in the run log's confirmations.
func (t *Terminal) ChannelName() string { return "terminal" }

// ChannelName names the script in the run log's confirmations.
func (s *Script) ChannelName() string { return "script" }
