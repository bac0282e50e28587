package episode

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
)

// Load reads an episode (its folder or its events.jsonl) for thea test and
// thea eval, and refuses one whose recorded values a replay acts on are out
// of type, naming the file and the line: an episode file is someone else's
// data, and its values must stay data.
func Load(ctx context.Context, p string) (*replay.Episode, error) {
	ep, err := replay.Load(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := Check(ctx, ep); err != nil {
		return nil, err
	}
	return ep, nil
}

// Check refuses an episode whose recorded values are out of type: a seed
// that is not a whole number (it reaches the back-ends' command lines), a
// negative turn, a user's answer that is not text, a hook decision that is
// not an object. Errors name the file and the line.
func Check(ctx context.Context, ep *replay.Episode) error {
	for _, l := range ep.Events {
		if msg := checkLine(l); msg != "" {
			return fmt.Errorf("%s: %s event: %s", at(ep.Path, l), l.Kind, msg)
		}
	}
	return nil
}

// checkLine is what is wrong with one event, "" when nothing is.
func checkLine(l replay.Line) string {
	if l.Turn < 0 {
		return fmt.Sprintf("turn %d is negative", l.Turn)
	}
	switch l.Kind {
	case runlog.EventTaskStart:
		if l.Episode != nil && l.Episode.Seed != "" {
			if _, err := ParseSeed(l.Episode.Seed); err != nil {
				return "episode.seed: " + err.Error()
			}
		}
	case runlog.EventQuestion:
		var q struct {
			Args struct {
				Answer *string `json:"answer"`
			} `json:"args"`
		}
		if err := json.Unmarshal(l.Raw, &q); err != nil {
			return "args.answer: want text: " + err.Error()
		}
	case runlog.EventHook:
		var h struct {
			Hook *runlog.Decision `json:"hook"`
		}
		if err := json.Unmarshal(l.Raw, &h); err != nil {
			return "hook: want a hook decision: " + err.Error()
		}
		if h.Hook != nil && h.Hook.Confirmation != nil {
			return checkConfirmation(h.Hook.Confirmation)
		}
	}
	return ""
}

// checkConfirmation is what is wrong with a recorded confirmation: a
// replay answers with it, so an outcome it does not know is refused, not
// guessed.
func checkConfirmation(c *runlog.Confirmation) string {
	switch c.Outcome {
	case runlog.ConfirmApprove, runlog.ConfirmDeny, runlog.ConfirmNoChannel:
	case runlog.ConfirmFailed:
		if c.Error == "" {
			return "hook.confirmation.error: a failed confirmation says why"
		}
	default:
		return fmt.Sprintf("hook.confirmation.outcome: %q is not approve, deny, no_channel or failed", c.Outcome)
	}
	return ""
}

// at is "path:line" of an event as the reader numbered it; "path" alone
// for an event that was not read from a file.
func at(path string, l replay.Line) string {
	if l.N <= 0 {
		return path
	}
	return fmt.Sprintf("%s:%d", path, l.N)
}
