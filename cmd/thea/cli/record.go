package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// recording is `thea run --record`: the run log is on (in a temporary
// folder unless --run-log names one) and each new task folder is saved as
// an episode when the command ends.
type recording struct {
	a      *App
	name   string
	runLog string
	before []string
	temp   bool
}

func (a *App) startRecording(cmd *cobra.Command, so *sessionOptions, spec *schema.Spec) (*recording, error) {
	name := a.str(cmd, "record")
	if name == "" {
		return nil, nil
	}
	dest, err := episode.RecordDir(spec, name)
	if err != nil {
		return nil, usageError{fmt.Errorf("--record: %w", err)}
	}
	if err := outfile.Check(filepath.Join(dest, runlog.EventsFile)); err != nil {
		return nil, usageError{fmt.Errorf("--record: %w", err)}
	}
	r := &recording{a: a, name: name, runLog: so.runLogDir}
	if r.runLog == "" && spec.RunLog.Enabled {
		// The spec's own run log: the episode is copied out of it.
		dir := spec.RunLog.Dir
		if dir == "" {
			dir = filepath.Join(".thea", "runs")
		}
		r.runLog = spec.Resolve(dir)
	}
	if r.runLog == "" {
		dir, err := os.MkdirTemp("", "thea-record-")
		if err != nil {
			return nil, fmt.Errorf("--record: %w", err)
		}
		r.runLog, r.temp = dir, true
	}
	so.runLogDir = r.runLog
	if r.before, err = episode.RunDirs(r.runLog); err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return r, nil
}

// finish saves the episodes; a nil recording does nothing.
func (r *recording) finish(spec *schema.Spec) {
	if r == nil {
		return
	}
	if r.temp {
		defer os.RemoveAll(r.runLog)
	}
	dest, err := episode.RecordDir(spec, r.name)
	var dirs []string
	if err == nil {
		dirs, err = episode.RunDirs(r.runLog)
	}
	if err == nil {
		var written []string
		written, err = episode.Save(dirs, r.before, dest)
		for _, w := range written {
			fmt.Fprintf(r.a.Stderr, "thea: episode recorded in %s\n", termesc.Escape(w))
		}
	}
	if err != nil {
		fmt.Fprintf(r.a.Stderr, "thea: %s\n", termesc.Escape(err.Error()))
	}
}

// seeded applies --seed to the spec's toolset command lines.
func (a *App) seeded(cmd *cobra.Command, spec *schema.Spec) (*schema.Spec, error) {
	text := a.str(cmd, "seed")
	if text == "" {
		return spec, nil
	}
	seed, err := episode.ParseSeed(text)
	if err != nil {
		return nil, usageError{fmt.Errorf("--seed: %w", err)}
	}
	s, err := episode.WithSeed(spec, seed)
	if err != nil {
		return nil, usageError{fmt.Errorf("--seed: %w", err)}
	}
	return s, nil
}
