package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// EventsFile is the name of an episode's event log inside its folder.
const EventsFile = "events.jsonl"

// Line is one event of an episode as recorded: the typed fields a replay
// needs, and the raw JSON the comparison reads.
type Line struct {
	Kind      engine.EventKind    `json:"kind"`
	Turn      int                 `json:"turn"`
	Text      string              `json:"text"`
	ModelCall *engine.ModelCall   `json:"model_call"`
	Episode   *engine.EpisodeInfo `json:"episode"`
	Raw       json.RawMessage     `json:"-"`
}

// Episode is one recorded task.
type Episode struct {
	// Path is the events file.
	Path string
	// Instruction is the task's instruction (the task_start event's text).
	Instruction string
	// Info is what produced the run; nil in a log recorded before episodes
	// carried it.
	Info *engine.EpisodeInfo
	// Calls are the model calls in the order they were made.
	Calls []engine.ModelCall
	// Events are every recorded event, in order.
	Events []Line
}

// EventsPath returns the events file of an episode given as its folder or
// as the file itself.
func EventsPath(p string) string {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return filepath.Join(p, EventsFile)
	}
	return p
}

// Load reads an episode (its folder or its events.jsonl). It must hold
// exactly one task: a task_start event first.
func Load(p string) (*Episode, error) {
	path := EventsPath(p)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("episode: %w", err)
	}
	return Parse(path, b)
}

// Parse reads an episode's events; path names it in errors.
func Parse(path string, b []byte) (*Episode, error) {
	ep := &Episode{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, fmt.Errorf("%s:%d: not an event: %w", path, n, err)
		}
		if l.Kind == "" {
			return nil, fmt.Errorf("%s:%d: event without a kind", path, n)
		}
		l.Raw = append(json.RawMessage(nil), raw...)
		if len(ep.Events) == 0 && l.Kind != engine.EventTaskStart {
			return nil, fmt.Errorf("%s:%d: an episode starts with a task_start event, not %q", path, n, l.Kind)
		}
		switch l.Kind {
		case engine.EventTaskStart:
			if len(ep.Events) > 0 {
				return nil, fmt.Errorf("%s:%d: a second task_start: an episode holds one task", path, n)
			}
			ep.Instruction, ep.Info = l.Text, l.Episode
		case engine.EventModelCall:
			if l.ModelCall == nil {
				return nil, fmt.Errorf("%s:%d: model_call event without its model_call", path, n)
			}
			switch l.ModelCall.Purpose {
			case model.PurposeDecide, model.PurposeCompact, model.PurposeConsolidate, model.PurposeEvaluate:
			default:
				return nil, fmt.Errorf("%s:%d: model_call with unknown purpose %q", path, n, l.ModelCall.Purpose)
			}
			ep.Calls = append(ep.Calls, *l.ModelCall)
		}
		ep.Events = append(ep.Events, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(ep.Events) == 0 {
		return nil, fmt.Errorf("%s: empty episode", path)
	}
	return ep, nil
}

// Count returns how many calls of a purpose the episode recorded.
func (ep *Episode) Count(p model.Purpose) int {
	n := 0
	for _, c := range ep.Calls {
		if c.Purpose == p {
			n++
		}
	}
	return n
}
