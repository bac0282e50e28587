package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
)

// A checkpoint is read, not trusted: a missing one, another version, a
// torn file or an impossible position is an error naming the file and why.
func TestReadCheckpointRefusesWhatItCannotResume(t *testing.T) {
	dir := t.TempDir()
	if _, err := engine.ReadCheckpoint(t.Context(), dir); !errors.Is(err, engine.ErrNoCheckpoint) {
		t.Errorf("no checkpoint: %v", err)
	}
	for body, want := range map[string]string{
		`{"version": 99, "task": 1, "instruction": "x"}`:                       "version 99, this build reads version 1",
		`{"version": 1, "task": 1, "turn": 3, "clock": 2, "instruction": "x"}`: "not a task's position",
		`{"version": 1, "task": 1, "instruction": ""}`:                         "no instruction",
		`{"version": 1, "task": 1, "instr`:                                     "not a checkpoint",
	} {
		if err := os.WriteFile(filepath.Join(dir, engine.CheckpointFile), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := engine.ReadCheckpoint(t.Context(), dir)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), engine.CheckpointFile) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
