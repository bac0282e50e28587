package episode

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/replay"
)

// replayUser answers the model's questions with the answers the episode
// recorded, in order, so a replay never waits on a person.
type replayUser struct {
	mu      sync.Mutex
	answers []string
}

var _ engine.UserChannel = (*replayUser)(nil)

func newReplayUser(ep *replay.Episode) *replayUser {
	u := &replayUser{}
	for _, l := range ep.Events {
		if l.Kind != engine.EventQuestion {
			continue
		}
		var q struct {
			Args struct {
				Answer *string `json:"answer"`
			} `json:"args"`
		}
		if json.Unmarshal(l.Raw, &q) == nil && q.Args.Answer != nil {
			u.answers = append(u.answers, *q.Args.Answer)
		}
	}
	return u
}

// Ask returns the next recorded answer.
func (u *replayUser) Ask(_ context.Context, q engine.Question) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.answers) == 0 {
		return "", fmt.Errorf("replay: the episode recorded no answer for the question %q", q.Text)
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	return a, nil
}

// Notify implements engine.UserChannel.
func (u *replayUser) Notify(context.Context, string) error { return nil }
