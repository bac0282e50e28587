package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simOnPath puts this test binary on PATH as thea-sim-rosbridge, the
// program `thea sim rosbridge` runs (TestMain serves the fake under that
// name), so the command is tried as a user runs it: a separate process.
func simOnPath(t *testing.T) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "thea-sim-rosbridge")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// The thea binary links no fake robot: without thea-sim-rosbridge beside
// it or on PATH, thea sim rosbridge says which program it needs and how to
// build it, rather than serving a fake of its own.
func TestSimFakeIsItsOwnProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, _, stderr := run(t, "sim", "rosbridge", "-no-such-flag")
	if code == 0 || !strings.Contains(stderr, "thea-sim-rosbridge") || !strings.Contains(stderr, "./cmd/thea-sim-rosbridge") {
		t.Fatalf("sim rosbridge with no program: code %d, stderr %q", code, stderr)
	}
}
