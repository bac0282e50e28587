package episode

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/replay"
	"github.com/thea-harness/thea/internal/readfile"
)

// maxEpisodeFile bounds the second read that finds a refused value's line.
const maxEpisodeFile = 64 << 20

// Load reads an episode (its folder or its events.jsonl) for thea test and
// thea eval, and refuses one whose recorded values a replay acts on are out
// of type, naming the file and the line: an episode file is someone else's
// data, and its values must stay data.
func Load(p string) (*replay.Episode, error) {
	ep, err := replay.Load(p)
	if err != nil {
		return nil, err
	}
	if err := Check(ep); err != nil {
		return nil, err
	}
	return ep, nil
}

// Check refuses an episode whose recorded values are out of type: a seed
// that is not a whole number (it reaches the back-ends' command lines), a
// negative turn, a user's answer that is not text, a hook verdict that is
// not an object. Errors name the file and the line.
func Check(ep *replay.Episode) error {
	for i, l := range ep.Events {
		if msg := checkLine(l); msg != "" {
			return fmt.Errorf("%s: %s event: %s", at(ep.Path, i), l.Kind, msg)
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
	case engine.EventTaskStart:
		if l.Episode != nil && l.Episode.Seed != "" {
			if _, err := ParseSeed(l.Episode.Seed); err != nil {
				return "episode.seed: " + err.Error()
			}
		}
	case engine.EventQuestion:
		var q struct {
			Args struct {
				Answer *string `json:"answer"`
			} `json:"args"`
		}
		if err := json.Unmarshal(l.Raw, &q); err != nil {
			return "args.answer: want text: " + err.Error()
		}
	case engine.EventHook:
		var h struct {
			Hook *engine.HookVerdict `json:"hook"`
		}
		if err := json.Unmarshal(l.Raw, &h); err != nil {
			return "hook: want a hook verdict: " + err.Error()
		}
	}
	return ""
}

// at is "path:line" of the episode's i-th event. The parser skips blank
// lines, so the index alone does not give the line: the file is scanned
// again (only when a value is refused); "path" alone if it cannot be.
func at(path string, i int) string {
	b, err := readfile.Read(path, maxEpisodeFile)
	if err != nil {
		return path
	}
	n, seen := 0, -1
	for line := range bytes.Lines(b) {
		n++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if seen++; seen == i {
			return fmt.Sprintf("%s:%d", path, n)
		}
	}
	return path
}
