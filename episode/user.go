package episode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
)

// replayUser answers the model's questions with the answers the episode
// recorded, in order, so a replay never waits on a person. Confirm hooks
// get what they got while recording: an answer, or the failure to ask
// (no terminal, a channel that takes no confirmations, a timeout), so an
// unchanged spec blocks with the same reason.
type replayUser struct {
	mu       sync.Mutex
	answers  []string
	confirms []confirmReply
}

// confirmReply is one recorded confirmation: an answer, or why none came.
type confirmReply struct {
	answer string
	err    error
}

var (
	_ engine.UserChannel = (*replayUser)(nil)
	_ engine.Confirmer   = (*replayUser)(nil)
)

// confirmAnswer finds the answer a confirm hook got in its block reason.
var confirmAnswer = regexp.MustCompile(`\(answer ("(?:[^"\\]|\\.)*")\)$`)

func newReplayUser(ep *replay.Episode) *replayUser {
	u := &replayUser{}
	for _, l := range ep.Events {
		if l.Kind == runlog.EventHook {
			u.recordConfirm(l)
			continue
		}
		if l.Kind != runlog.EventQuestion {
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

// recordConfirm keeps what a person answered a confirm hook: "yes" for a
// confirmed call, the quoted answer of one refused.
func (u *replayUser) recordConfirm(l replay.Line) {
	var ev struct {
		Hook *runlog.Decision `json:"hook"`
	}
	if json.Unmarshal(l.Raw, &ev) != nil || ev.Hook == nil || ev.Hook.Phase != "pre" {
		return
	}
	hook := fmt.Sprintf("hook %q: ", ev.Hook.Hook)
	switch ev.Hook.Decision {
	case runlog.DecisionConfirm:
		u.confirms = append(u.confirms, confirmReply{answer: "yes"})
	case runlog.DecisionBlock:
		reason := ev.Hook.Reason
		if m := confirmAnswer.FindStringSubmatch(reason); m != nil {
			if a, err := strconv.Unquote(m[1]); err == nil {
				u.confirms = append(u.confirms, confirmReply{answer: a})
			}
			return
		}
		// The confirm action's own words (policies.actConfirm) when it could
		// not ask.
		if why, ok := strings.CutPrefix(reason, hook+"asking for confirmation failed: "); ok {
			u.confirms = append(u.confirms, confirmReply{err: errors.New(why)})
			return
		}
		if reason == hook+policies.ErrNoConfirmChannel.Error() {
			u.confirms = append(u.confirms, confirmReply{err: policies.ErrNoConfirmChannel})
		}
	}
}

// Confirm returns the next recorded answer to a confirm hook.
func (u *replayUser) Confirm(_ context.Context, q engine.Question) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.confirms) == 0 {
		return "", fmt.Errorf("replay: the episode recorded no confirmation for %q", q.Text)
	}
	r := u.confirms[0]
	u.confirms = u.confirms[1:]
	return r.answer, r.err
}
