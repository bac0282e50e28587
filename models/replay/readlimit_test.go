package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/runlog"
)

// An episode file that is a FIFO, a device, a link out of its folder or
// too large is refused at once by Load, by Check (validate) and by the
// provider.
func TestLoadRefusesHostileEpisodes(t *testing.T) {
	readfiletest.Refuses(t, runlog.EventsFile, func(p string) error {
		_, err := Load(t.Context(), p)
		return err
	})
	readfiletest.Refuses(t, runlog.EventsFile, Check)
	readfiletest.Refuses(t, runlog.EventsFile, func(p string) error {
		_, err := New(Config{Script: p}, "")
		return err
	})
	dir := t.TempDir()
	big := filepath.Join(dir, runlog.EventsFile)
	readfiletest.Sparse(t, big, readfile.Episode.Max()+1)
	for name, err := range map[string]error{
		"Load":  func() error { _, err := Load(t.Context(), dir); return err }(),
		"Check": Check(dir),
	} {
		if err == nil || !strings.Contains(err.Error(), "larger than 256 MiB, the limit for an episode events file") {
			t.Errorf("%s of a file past the limit: %v", name, err)
		}
	}
	if err := Check(filepath.Join(dir, "episode.log")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}
