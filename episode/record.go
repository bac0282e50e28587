package episode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// RecordDir is where `thea run --record NAME` writes: the folder NAME of
// <spec dir>/episodes. NAME is a plain file name, so an episode always lands
// where thea test finds it: a name with a path separator, "." or ".." (which
// would write into the spec's folder or elsewhere) is refused.
func RecordDir(spec *schema.Spec, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	return filepath.Join(spec.Dir, Dir, name), nil
}

// CheckName refuses an episode name that is not a plain file name.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("episode name is empty: want a plain name such as put-mug-in-drawer")
	case name == "." || name == "..":
		return fmt.Errorf("episode name %q: want a plain name such as put-mug-in-drawer, not a folder reference", name)
	case strings.ContainsAny(name, "/\\\x00") || strings.ContainsRune(name, filepath.Separator):
		return fmt.Errorf("episode name %q: want a plain name such as put-mug-in-drawer, without a path separator (episodes are saved in %s/ beside the spec)", name, Dir)
	}
	return nil
}

// RunDirs lists the task folders of a run-log directory, oldest first.
func RunDirs(runLog string) ([]string, error) {
	entries, err := os.ReadDir(runLog)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("run log: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(runLog, e.Name()))
		}
	}
	slices.Sort(out) // named by start time
	return out, nil
}

// Save copies the run logs of the tasks in runDirs that are not in before
// into episode folders: the first to dest, later ones to dest-2, dest-3….
// Only events.jsonl is kept: images are not needed to replay. It returns
// the folders written.
func Save(runDirs, before []string, dest string) ([]string, error) {
	var written []string
	n := 0
	for _, d := range runDirs {
		if slices.Contains(before, d) {
			continue
		}
		n++
		to := dest
		if n > 1 {
			to = fmt.Sprintf("%s-%d", dest, n)
		}
		// The run log this process just wrote, read even when Ctrl-C
		// ended the run (its context is done by now).
		if err := SaveRun(context.Background(), d, to); err != nil {
			return written, fmt.Errorf("recording episode: %w", err)
		}
		written = append(written, to)
	}
	return written, nil
}

// SaveRun makes the run log of one task (its folder, or its events.jsonl)
// the episode folder dest: its events.jsonl is checked as thea test reads
// an episode (one task, values in type) and copied; the camera images stay
// in the run log. Any run's log is an episode: a failure, a blocked call,
// an operator's stop. An episode already at dest is replaced (thea run
// --record NAME records NAME again).
func SaveRun(ctx context.Context, runDir, dest string) error {
	b, err := checkedRun(ctx, runDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return fmt.Errorf("saving episode: %w", err)
	}
	if err := outfile.Write(filepath.Join(dest, runlog.EventsFile), b, 0o644); err != nil {
		return fmt.Errorf("saving episode: %w", err)
	}
	return nil
}

// SaveNewRun is SaveRun into a folder dest that must not exist (thea test
// --save, thea eval --save-failures): an existing folder, file or symbolic
// link at dest is refused, and so is anything at its events.jsonl, so an
// episode is never replaced nor written outside its folder.
func SaveNewRun(ctx context.Context, runDir, dest string) error {
	b, err := checkedRun(ctx, runDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return fmt.Errorf("saving episode: %w", err)
	}
	if err := outfile.CreateDir(dest, 0o755); err != nil {
		return fmt.Errorf("saving episode: %w", err)
	}
	if err := outfile.Create(filepath.Join(dest, runlog.EventsFile), b, 0o644); err != nil {
		return fmt.Errorf("saving episode: %w", err)
	}
	return nil
}

// checkedRun reads the events of a task's run log and checks them as an
// episode.
func checkedRun(ctx context.Context, runDir string) ([]byte, error) {
	if filepath.Base(runDir) == runlog.EventsFile {
		runDir = filepath.Dir(runDir)
	}
	b, err := replay.ReadEvents(ctx, runDir)
	if err != nil {
		return nil, err
	}
	ep, err := replay.Parse(filepath.Join(runDir, runlog.EventsFile), b)
	if err != nil {
		return nil, err
	}
	if err := Check(ctx, ep); err != nil {
		return nil, err
	}
	return b, nil
}
