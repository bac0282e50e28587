package episode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

func newReplayUser(ep *replay.Episode) *replayUser {
	u := &replayUser{}
	// Only a run log written before confirmations were data is read by
	// their wording: in a newer one, a block reason is never an answer.
	legacy := ep.Info == nil || ep.Info.Format < runlog.FormatConfirmations
	for _, l := range ep.Events {
		if l.Kind == runlog.EventHook {
			u.recordConfirm(l, legacy)
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

// recordConfirm keeps what a person answered a confirm hook, from the
// confirmation the hook's decision records; a run log written before
// confirmations were data (legacy) goes through legacyConfirm.
func (u *replayUser) recordConfirm(l replay.Line, legacy bool) {
	var ev struct {
		Hook *runlog.Decision `json:"hook"`
	}
	if json.Unmarshal(l.Raw, &ev) != nil || ev.Hook == nil || ev.Hook.Phase != "pre" {
		return
	}
	c := ev.Hook.Confirmation
	if c == nil {
		if r, ok := legacyConfirm(*ev.Hook); ok && legacy {
			u.confirms = append(u.confirms, r)
		}
		return
	}
	switch c.Outcome {
	case runlog.ConfirmApprove, runlog.ConfirmDeny:
		u.confirms = append(u.confirms, confirmReply{answer: c.Answer})
	case runlog.ConfirmNoChannel:
		u.confirms = append(u.confirms, confirmReply{err: policies.ErrNoConfirmChannel})
	case runlog.ConfirmFailed:
		u.confirms = append(u.confirms, confirmReply{err: errors.New(c.Error)})
	default:
		// Check refuses it at load; a replay never answers for it.
		u.confirms = append(u.confirms, confirmReply{err: fmt.Errorf("replay: a confirmation with unknown outcome %q", c.Outcome)})
	}
}

// ChannelName says the confirmations came from the recording.
func (u *replayUser) ChannelName() string { return "replay" }

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
