package skills

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

func TestParseRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, SkillFile, func(path string) error {
		_, err := Parse(t.Context(), path)
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
		_, err := Load(t.Context(), []string{dir})
		return err
	})
}

// A resource that is a FIFO with no writer, or a link to /dev/zero, is
// refused at once: read_skill_resource must never wedge the session.
func TestResourceRefusesNonRegular(t *testing.T) {
	if MaxResourceBytes != readfile.SkillResource.Max() {
		t.Fatalf("MaxResourceBytes %d differs from the reader's limit %d", MaxResourceBytes, readfile.SkillResource.Max())
	}
	dir := t.TempDir()
	skill := filepath.Join(dir, "open_drawer")
	write(t, filepath.Join(skill, SkillFile), drawer)
	if err := syscall.Mkfifo(filepath.Join(skill, "fifo.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(skill, "zero.md")); err != nil {
		t.Fatal(err)
	}
	c, err := Load(t.Context(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{
		"fifo.md": `resource "fifo.md" is not a regular file; refused`,
		"zero.md": `resource "zero.md" is a symlink that leads outside its folder; refused`,
	} {
		readfiletest.Returns(t, rel, func() error {
			_, err := c.Resource(t.Context(), "open_drawer", rel)
			return err
		}, want)
	}
}

// A SKILL.md that is a symlink leading out of its folder is refused, not
// read.
func TestParseRefusesEscapingSkillFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "SKILL.md")
	write(t, outside, drawer)
	if err := os.Mkdir(filepath.Join(dir, "grab"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "grab", SkillFile)); err != nil {
		t.Fatal(err)
	}
	_, err := Load(t.Context(), []string{dir})
	if !errors.Is(err, readfile.ErrOutside) || !strings.Contains(err.Error(), "grab/SKILL.md: refused: leads outside its folder") {
		t.Fatalf("got %v", err)
	}
}

// A FIFO where a skills folder should be is an error at once.
func TestLoadRefusesAFIFOFolder(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "skills")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	readfiletest.Returns(t, fifo, func() error {
		_, err := Load(t.Context(), []string{fifo})
		return err
	}, "skills: not a folder (a FIFO)")
}
