package skills

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

func TestParseRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, SkillFile, func(path string) error {
		_, err := Parse(path)
		return err
	})
}

// TestLoadRefusesFIFOSkill: a skills dir whose SKILL.md is a FIFO fails
// Load with the reason instead of hanging.
func TestLoadRefusesFIFOSkill(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "grab"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "grab", SkillFile), 0o600); err != nil {
		t.Fatal(err)
	}
	readfiletest.Refuses(t, "unused", func(string) error {
		_, err := Load([]string{dir})
		return err
	})
}
