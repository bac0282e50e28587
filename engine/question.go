package engine

import (
	"context"

	"github.com/thea-harness/thea/world"
)

// Question is what query_user asks; Refs are scene-graph refs attached as
// candidates so the answer can be grounded, each described (and shown, by a
// channel that can) in Candidates. Kind tells a confirm hook's question from
// the model's, so a channel that answers them separately (the HTTP server)
// never takes an answer to one for the other.
type Question struct {
	Kind       QuestionKind `json:"kind,omitempty"`
	Text       string       `json:"text"`
	Choices    []string     `json:"choices,omitempty"`
	Refs       []string     `json:"refs,omitempty"`
	Candidates []Candidate  `json:"candidates,omitempty"`
	// Call is the call a confirm hook asks about (nil for the model's
	// questions), so a channel can show what it would allow.
	Call *ConfirmCall `json:"call,omitempty"`
}

// ConfirmCall is the call a confirm hook asks about, waiting on the answer:
// its tool, its arguments as the hooks before the confirm hook left them,
// and the confirm hook.
type ConfirmCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
	Hook string         `json:"hook"`
}

// Candidate is one attached ref: its Brief line and its last view, if kept.
type Candidate struct {
	Ref  string       `json:"ref"`
	Line string       `json:"line"`
	View *world.Image `json:"-"`
}

// QuestionKind says who asks: the model (query_user) or a confirm hook.
type QuestionKind string

// Question kinds; the zero value is a query.
const (
	QuestionQuery   QuestionKind = ""
	QuestionConfirm QuestionKind = "confirm"
)

// UserChannel is the person at the other end of query_user and notify_user.
// Implementations: terminal (interactive) and script (tests, demos).
type UserChannel interface {
	// Ask blocks until the user answers or ctx ends.
	Ask(ctx context.Context, q Question) (string, error)
	// Notify tells without waiting.
	Notify(ctx context.Context, text string) error
}

// Confirmer is a user channel that can take a confirm hook's answer apart
// from the instruction stream (the controlling terminal, a script in tests,
// a server's confirm endpoint). A channel offers it by implementing it.
type Confirmer interface {
	Confirm(ctx context.Context, q Question) (string, error)
}

// ChannelNamer is a confirmation channel that says who answers through it
// ("terminal", "script", "console"): the run log records it with each
// confirmation.
type ChannelNamer interface {
	ChannelName() string
}

// ChannelName is c's name when it has one, "" otherwise.
func ChannelName(c any) string {
	if n, ok := c.(ChannelNamer); ok {
		return n.ChannelName()
	}
	return ""
}
