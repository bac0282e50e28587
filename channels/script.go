package channels

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/readfile"
)

// Answer is one scripted answer. With Match set it answers the first question
// containing Match; without, it answers the next question in order.
type Answer struct {
	Match  string `yaml:"match,omitempty"`
	Answer string `yaml:"answer"`
}

// Script answers questions from a list and records notifications and the
// questions it was asked. A question nothing answers is an error.
type Script struct {
	mu        sync.Mutex
	answers   []Answer
	used      []bool
	notified  []string
	questions []engine.Question
}

var _ engine.UserChannel = (*Script)(nil)

// NewScript answers with the given answers.
func NewScript(answers ...Answer) *Script {
	return &Script{answers: answers, used: make([]bool, len(answers))}
}

// LoadScript reads an answers file (see ParseScript). A user channel is
// built without a context (engine.UserChannelKind.New); the reader refuses
// anything but a regular file within the limit, so the read cannot wait.
func LoadScript(path string) (*Script, error) {
	b, err := readfile.Read(context.Background(), path, readfile.Answers)
	if err != nil {
		return nil, fmt.Errorf("user script: %w", err)
	}
	answers, probs := ParseScript(b)
	if len(probs) > 0 {
		errs := make([]error, len(probs))
		for i, p := range probs {
			errs[i] = fmt.Errorf("user script %s:%w", path, p)
		}
		return nil, errors.Join(errs...)
	}
	return NewScript(answers...), nil
}

// Ask returns the first unused answer whose match the question contains, else
// the first unused answer without a match.
func (s *Script) Ask(ctx context.Context, q engine.Question) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("user script: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.questions = append(s.questions, q)
	pick := -1
	for i, a := range s.answers {
		if !s.used[i] && a.Match != "" && strings.Contains(q.Text, a.Match) {
			pick = i
			break
		}
	}
	if pick < 0 {
		for i, a := range s.answers {
			if !s.used[i] && a.Match == "" {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return "", fmt.Errorf("user script has no answer for %q", q.Text)
	}
	s.used[pick] = true
	return pickChoice(s.answers[pick].Answer, q.Choices), nil
}

// Notify records the message.
func (s *Script) Notify(_ context.Context, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notified = append(s.notified, text)
	return nil
}

// Notifications returns the messages received so far.
func (s *Script) Notifications() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.notified...)
}

// Questions returns the questions asked so far.
func (s *Script) Questions() []engine.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]engine.Question(nil), s.questions...)
}
