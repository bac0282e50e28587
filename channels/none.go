package channels

import (
	"context"
	"errors"

	"github.com/thea-harness/thea/engine"
)

// ErrNoUser is what query_user gets when the spec's user channel is "none".
var ErrNoUser = errors.New("no user is reachable on this robot (user.channel is \"none\"); decide without asking or end the task with a report")

// None is the channel of a robot with nobody to ask: questions fail with
// ErrNoUser, notifications are dropped.
type None struct{}

var _ engine.UserChannel = None{}

// Ask always fails: there is nobody to answer.
func (None) Ask(context.Context, engine.Question) (string, error) { return "", ErrNoUser }

// Notify drops the message: nobody is listening.
func (None) Notify(context.Context, string) error { return nil }
