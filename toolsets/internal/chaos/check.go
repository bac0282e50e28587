package chaos

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
)

// Recorder is an event sink keeping every event's kind per task, to prove
// the run log lost none.
type Recorder struct {
	mu    sync.Mutex
	kinds map[int][]string
	tally map[string]int
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{kinds: map[int][]string{}, tally: map[string]int{}} }

// Tally counts what happened: safety events by their kind, tasks by how
// they ended, failed tool results.
func (r *Recorder) Tally() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.tally))
	for k, v := range r.tally {
		out[k] = v
	}
	return out
}

// Factory opens the recorder's sink for a task (engine.Options.Sinks).
func (r *Recorder) Factory(info engine.TaskInfo) (engine.Sink, error) {
	return recSink{r: r, task: info.Task}, nil
}

// Kinds returns the kinds recorded per task.
func (r *Recorder) Kinds() map[int][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[int][]string{}
	for k, v := range r.kinds {
		out[k] = slices.Clone(v)
	}
	return out
}

type recSink struct {
	r    *Recorder
	task int
}

func (s recSink) Write(ev runlog.Event) error {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.kinds[s.task] = append(s.r.kinds[s.task], string(ev.Kind))
	switch {
	case ev.Kind == runlog.EventSafety:
		s.r.tally["safety "+string(ev.Safety)]++
	case ev.Kind == runlog.EventDone && ev.Done != nil:
		s.r.tally["done "+string(ev.Done.Reason)]++
	case ev.Kind == runlog.EventToolResult && ev.Result != nil && !ev.Result.Success:
		s.r.tally["failed tool results"]++
	}
	return nil
}

func (recSink) Close() error { return nil }

// CheckRunLog checks the run log under runs against what the recorder saw:
// one directory per task, every line of its events.jsonl a JSON object of
// that task, the same events in the same order as every other sink got,
// exactly one done and it last; no sink error event.
func CheckRunLog(ctx context.Context, runs string, rec *Recorder) error {
	want := rec.Kinds()
	dirs, err := filepath.Glob(filepath.Join(runs, "*-task*"))
	if err != nil {
		return fmt.Errorf("listing run dirs: %w", err)
	}
	if len(dirs) != len(want) {
		return fmt.Errorf("%d run directories for %d tasks", len(dirs), len(want))
	}
	for _, dir := range dirs {
		var kinds []string
		task := 0
		for rec, err := range runlog.ReadDir(ctx, dir, readfile.RunLog) {
			if err != nil {
				return err
			}
			l, err := rec.Line()
			if err != nil {
				return err
			}
			if task == 0 {
				task = l.Task
			} else if l.Task != task {
				return rec.Errorf("task %d in the log of task %d", l.Task, task)
			}
			kinds = append(kinds, string(l.Kind))
		}
		if n := strings.Count(strings.Join(kinds, " ")+" ", "done "); n != 1 || kinds[len(kinds)-1] != "done" {
			return fmt.Errorf("%s: %d done events (want exactly one, last): %v", dir, n, kinds)
		}
		if slices.Contains(kinds, string(runlog.EventSinkError)) {
			return fmt.Errorf("%s: a sink lost events: %v", dir, kinds)
		}
		if !slices.Equal(kinds, want[task]) {
			return fmt.Errorf("%s: the run log has %d events %v, the other sink %d %v", dir, len(kinds), kinds, len(want[task]), want[task])
		}
	}
	return nil
}

// CheckNoSecret fails when any file under dir, or any of texts, holds one of
// the secrets.
func CheckNoSecret(dir string, secrets []string, texts map[string]string) error {
	for name, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				return fmt.Errorf("the secret %.4s… is in %s", s, name)
			}
		}
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				return fmt.Errorf("the secret %.4s… is in %s", s, path)
			}
		}
		return nil
	})
}

// CheckTerminalSafe fails when terminal output carries raw escape or
// control characters other than newline and tab.
func CheckTerminalSafe(name, out string) error {
	for i, r := range out {
		if r == 0x1b || r == 0x07 || r == '\r' || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			lo := max(0, i-60)
			return fmt.Errorf("%s carries a raw control character %q at byte %d: %q", name, r, i, out[lo:min(len(out), i+20)])
		}
	}
	return nil
}
