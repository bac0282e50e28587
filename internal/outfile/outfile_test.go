package outfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/testtime"
)

// writeBounded runs Write, failing the test (not hanging it) when the write
// blocks, as opening a FIFO for writing does when no one reads it.
func writeBounded(t *testing.T, path string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- outfile.Write(path, []byte("page\n"), 0o600) }()
	select {
	case err := <-done:
		return err
	case <-time.After(testtime.Scale(5 * time.Second)):
		t.Fatalf("writing %s blocked", path)
		return nil
	}
}

// A FIFO, a character device (a copy of /dev/null's numbers made in a temp
// folder, so a wrong write can never touch the system's own), a symbolic
// link to /dev/null and a directory are refused before anything is written,
// and each is left as it was.
func TestSpecialTargetsRefusedAndKept(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "null-link.html")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	targets := map[string]fs.FileMode{fifo: fs.ModeNamedPipe, link: fs.ModeSymlink, sub: fs.ModeDir}
	dev := filepath.Join(dir, "null-copy")
	// 1:3 is /dev/null's major and minor number (Linux). Needs CAP_MKNOD.
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		targets[dev] = fs.ModeDevice | fs.ModeCharDevice
	} else {
		t.Logf("no character device of our own (%v): the link to /dev/null covers devices", err)
	}
	for path, mode := range targets {
		err := writeBounded(t, path)
		if !errors.Is(err, outfile.ErrNotRegular) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("%s: %v", path, err)
		}
		if err := outfile.Check(path); !errors.Is(err, outfile.ErrNotRegular) {
			t.Errorf("Check %s: %v", path, err)
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Type() != mode {
			t.Errorf("%s was replaced: %v %v", path, fi.Mode(), err)
		}
	}
	if dst, err := os.Readlink(link); err != nil || dst != "/dev/null" {
		t.Errorf("the link now points to %q (%v)", dst, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

// A new path, a regular file (replaced, given the mode asked for) and a
// link to a regular file (written through; the link stays) are written.
func TestRegularTargetsWritten(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.json")
	old := filepath.Join(dir, "old.json")
	linked := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	for _, p := range []string{old, linked} {
		if err := os.WriteFile(p, []byte("a much longer old content\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fresh, old, link} {
		if err := writeBounded(t, p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	for _, p := range []string{fresh, old, linked} {
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "page\n" {
			t.Errorf("%s: %q %v", p, b, err)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v %v", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if err := outfile.Write(filepath.Join(dir, "missing", "x.json"), nil, 0o600); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
}

// A folder to write into may be missing or a directory; a FIFO or a file
// there is refused without opening it.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{dir, filepath.Join(dir, "new")} {
		if err := outfile.CheckDir(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for p, want := range map[string]string{fifo: "it is a FIFO, not a folder", file: "it is a regular file, not a folder"} {
		if err := outfile.CheckDir(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
}

// Create writes a new file, and refuses a regular file, a directory and a
// symbolic link (dangling or not) at its path, naming it: nothing is
// replaced or written through, and no temporary file is left.
func TestCreateRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	fresh := filepath.Join(dir, "new.cue")
	if err := outfile.Create(fresh, []byte("draft\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(fresh); err != nil || string(b) != "draft\n" {
		t.Errorf("%q %v", b, err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v %v", fi.Mode(), err)
	}
	dangling := filepath.Join(dir, "dangling.cue")
	if err := os.Symlink(outside, dangling); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := outfile.CreateDir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fresh, dangling, sub} {
		err := outfile.Create(p, []byte("other\n"), 0o644)
		if !errors.Is(err, outfile.ErrExists) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("%s: %v", p, err)
		}
		if err := outfile.CreateDir(p, 0o755); !errors.Is(err, outfile.ErrExists) || !strings.Contains(err.Error(), p) {
			t.Errorf("CreateDir %s: %v", p, err)
		}
	}
	if b, err := os.ReadFile(fresh); err != nil || string(b) != "draft\n" {
		t.Errorf("the file was replaced: %q %v", b, err)
	}
	if _, err := os.Lstat(outside); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("written through the dangling link: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}
