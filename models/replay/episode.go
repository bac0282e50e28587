package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
)

// Line is one event of an episode as recorded: the typed fields a replay
// needs, and the raw JSON the comparison reads.
type Line struct {
	Kind      runlog.EventKind    `json:"kind"`
	Turn      int                 `json:"turn"`
	Text      string              `json:"text"`
	ModelCall *runlog.ModelCall   `json:"model_call"`
	Episode   *runlog.EpisodeInfo `json:"episode"`
	Raw       json.RawMessage     `json:"-"`
	// N is the line's number in the file, for errors about its values.
	N int `json:"-"`
}

// Episode is one recorded task.
type Episode struct {
	// Path is the events file.
	Path string
	// Instruction is the task's instruction (the task_start event's text).
	Instruction string
	// Info is what produced the run; nil in a log recorded before episodes
	// carried it.
	Info *runlog.EpisodeInfo
	// Calls are the model calls in the order they were made.
	Calls []runlog.ModelCall
	// Events are every recorded event, in order.
	Events []Line
}

// EventsPath returns the events file of an episode given as its folder or
// as the file itself.
func EventsPath(p string) string {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return filepath.Join(p, runlog.EventsFile)
	}
	return p
}

// Load reads an episode (its folder or its events.jsonl) line by line,
// through the one reader: a regular file inside its folder (a symlink must
// not lead out of it), within the limits of an episode events file; a done
// ctx ends the read. It must hold exactly one task: a task_start event first.
func Load(ctx context.Context, p string) (*Episode, error) {
	path := EventsPath(p)
	root, err := readfile.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("episode: %w", err)
	}
	defer root.Close()
	ep := &Episode{Path: path}
	for rec, err := range runlog.Read(ctx, root, filepath.Base(path), readfile.Episode) {
		if err != nil {
			return nil, fmt.Errorf("episode: %w", err)
		}
		if err := ep.add(rec); err != nil {
			return nil, err
		}
	}
	return ep, ep.finish()
}

// Check says why Load would refuse an episode (its folder or its
// events.jsonl) without reading it: thea validate's check of model.script.
// A name that is neither a folder nor a .jsonl file is refused.
func Check(p string) error {
	path := EventsPath(p)
	if path == p && !strings.HasSuffix(p, ".jsonl") {
		if _, err := os.Stat(p); err != nil {
			return err
		}
		return fmt.Errorf("%s: %w", p, errNotEpisode)
	}
	root, err := readfile.OpenRoot(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer root.Close()
	return readfile.CheckIn(root, filepath.Base(path), readfile.Episode)
}

var errNotEpisode = errors.New("neither an episode folder nor a .jsonl events file")

// ReadEvents returns dir/events.jsonl whole, read as Load reads it.
func ReadEvents(ctx context.Context, dir string) ([]byte, error) {
	root, err := readfile.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("episode: %w", err)
	}
	defer root.Close()
	b, err := readfile.ReadIn(ctx, root, runlog.EventsFile, readfile.Episode)
	if err != nil {
		return nil, fmt.Errorf("episode: %w", err)
	}
	return b, nil
}

// Parse reads an episode's events from memory; path names it in errors.
func Parse(path string, b []byte) (*Episode, error) {
	ep := &Episode{Path: path}
	for rec, err := range runlog.Parse(path, b, readfile.Episode) {
		if err != nil {
			return nil, fmt.Errorf("episode: %w", err)
		}
		if err := ep.add(rec); err != nil {
			return nil, err
		}
	}
	return ep, ep.finish()
}

// add takes one line of the episode's file.
func (ep *Episode) add(rec runlog.Record) error {
	rec.Path = ep.Path
	path, n := ep.Path, rec.N
	var l Line
	if err := rec.Decode(&l); err != nil {
		return err
	}
	if l.Kind == "" {
		return rec.Errorf("an event without a kind")
	}
	l.Raw, l.N = rec.Raw, n
	if len(ep.Events) == 0 && l.Kind != runlog.EventTaskStart {
		return fmt.Errorf("%s:%d: an episode starts with a task_start event, not %q", path, n, l.Kind)
	}
	switch l.Kind {
	case runlog.EventTaskStart:
		if len(ep.Events) > 0 {
			return fmt.Errorf("%s:%d: a second task_start: an episode holds one task", path, n)
		}
		ep.Instruction, ep.Info = l.Text, l.Episode
	case runlog.EventModelCall:
		if l.ModelCall == nil {
			return fmt.Errorf("%s:%d: model_call event without its model_call", path, n)
		}
		switch l.ModelCall.Purpose {
		case model.PurposeDecide, model.PurposeCompact, model.PurposeConsolidate, model.PurposeEvaluate:
		default:
			return fmt.Errorf("%s:%d: model_call with unknown purpose %q", path, n, l.ModelCall.Purpose)
		}
		ep.Calls = append(ep.Calls, *l.ModelCall)
	}
	ep.Events = append(ep.Events, l)
	return nil
}

// finish checks the whole episode once every line is in.
func (ep *Episode) finish() error {
	if len(ep.Events) == 0 {
		return fmt.Errorf("%s: empty episode", ep.Path)
	}
	return nil
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
