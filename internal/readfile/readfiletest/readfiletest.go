//go:build unix

package readfiletest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// Refuses runs read on every hostile path and checks it fails with an error
// saying the path is not a regular file. A read that has not returned after
// a minute is reported as a hang (without the check a FIFO blocks forever
// and /dev/zero grows until the process dies), not timed for speed.
func Refuses(t *testing.T, name string, read func(path string) error) {
	t.Helper()
	for _, p := range Hostile(t, name) {
		done := make(chan error, 1)
		go func() { done <- read(p) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: got %v, want a not-a-regular-file error", p, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: the reader hangs", p)
		}
	}
}
