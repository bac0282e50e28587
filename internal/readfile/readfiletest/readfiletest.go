//go:build unix

package readfiletest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

// Hostile returns paths named name that a reader must refuse without
// reading: a FIFO no one writes to, and links to /dev/zero and /dev/urandom
// (each in its own t.TempDir, so loaders that look at the extension first
// still reach the file).
func Hostile(t testing.TB, name string) []string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	paths := []string{fifo}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		p := filepath.Join(t.TempDir(), name)
		if err := os.Symlink(dev, p); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// Sparse writes a file of size bytes at path without using the disk (a
// hole): a too-large input that costs nothing to make.
func Sparse(t testing.TB, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Refuses runs read on every hostile path and checks it fails with an error
// saying the path is not a regular file (or, for a reader that resolves
// names inside a folder, that the link leads outside it). A read that has
// not returned after a scaled minute is reported as a hang (without the
// check a FIFO blocks forever and /dev/zero grows until the process dies),
// not timed for speed.
func Refuses(t *testing.T, name string, read func(path string) error) {
	t.Helper()
	for _, p := range Hostile(t, name) {
		Returns(t, p, func() error { return read(p) }, "not a regular file", "leads outside its folder")
	}
}

// Returns runs fn and checks it returns an error holding one of the
// phrases; it fails the test as a hang if fn has not returned after a
// scaled minute.
func Returns(t *testing.T, what string, fn func() error, phrases ...string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("%s: no error, want one saying %q", what, phrases)
			return
		}
		for _, ph := range phrases {
			if strings.Contains(err.Error(), ph) {
				return
			}
		}
		t.Errorf("%s: got %v, want an error saying one of %q", what, err, phrases)
	case <-time.After(testtime.Scale(time.Minute)):
		t.Fatalf("%s: the reader hangs", what)
	}
}
