package readfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.yaml")
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(ok, []byte("name: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 2048), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		want    error
		message string
	}{
		{path: ok},
		{path: fifo, want: ErrNotRegular, message: "fifo: not a regular file (a FIFO)"},
		{path: "/dev/zero", want: ErrNotRegular, message: "/dev/zero: not a regular file (a character device)"},
		{path: "/dev/urandom", want: ErrNotRegular},
		{path: filepath.Join(dir, "zero.yaml"), want: ErrNotRegular},
		{path: dir, want: ErrNotRegular, message: "a directory"},
		{path: big, want: ErrTooLarge, message: "big.yaml: file too large: 2048 bytes, larger than 1 KiB"},
		{path: filepath.Join(dir, "missing"), want: os.ErrNotExist},
	}
	for _, tc := range tests {
		b, err := Read(tc.path, 1024)
		if tc.want == nil {
			if err != nil || string(b) != "name: x\n" {
				t.Errorf("%s: %q, %v", tc.path, b, err)
			}
			continue
		}
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: got %v, want %v containing %q", tc.path, err, tc.want, tc.message)
		}
	}
}
