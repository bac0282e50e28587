package readfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

// Every kind refuses a FIFO with no writer, devices, a directory and a file
// past its limit, at once and naming the file and the limit.
func TestReadRefusesByKind(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k.String(), func(t *testing.T) {
			dir := t.TempDir()
			ok := filepath.Join(dir, "ok")
			if err := os.WriteFile(ok, []byte("name: x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if b, err := Read(t.Context(), ok, k); err != nil || string(b) != "name: x\n" {
				t.Fatalf("a small regular file: %q, %v", b, err)
			}
			if err := Check(ok, k); err != nil {
				t.Fatalf("Check of a small regular file: %v", err)
			}
			readfiletest.Refuses(t, "input", func(p string) error {
				_, err := Read(t.Context(), p, k)
				return err
			})
			readfiletest.Refuses(t, "input", func(p string) error { return Check(p, k) })
			big := filepath.Join(dir, "big")
			readfiletest.Sparse(t, big, k.Max()+1)
			want := "big: file too large: " + strconv.FormatInt(k.Max()+1, 10) + " bytes, larger than " + Human(k.Max()) + ", the limit for "
			for name, err := range map[string]error{"Read": func() error { _, err := Read(t.Context(), big, k); return err }(), "Check": Check(big, k)} {
				if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), k.String()) {
					t.Errorf("%s of a file past the limit: %v, want %q…%s", name, err, want, k)
				}
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		want    error
		message string
	}{
		{path: fifo, want: ErrNotRegular, message: "fifo: not a regular file (a FIFO)"},
		{path: "/dev/zero", want: ErrNotRegular, message: "/dev/zero: not a regular file (a character device)"},
		{path: dir, want: ErrNotRegular, message: "not a regular file (a directory)"},
		{path: filepath.Join(dir, "missing"), want: fs.ErrNotExist, message: "missing"},
	}
	for _, tc := range tests {
		_, err := Read(t.Context(), tc.path, Spec)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: got %v, want %v containing %q", tc.path, err, tc.want, tc.message)
		}
	}
}

// Under a root, symlinks resolve inside the folder only: a MEMORY.md
// linked to /etc/passwd is refused, naming the link.
func TestReadInResolvesInsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "real.md"), []byte("- inside\n"), 0o600))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	must(t, os.Symlink("../real.md", filepath.Join(dir, "sub", "inside.md")))
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "MEMORY.md")))
	must(t, os.Symlink("/etc", filepath.Join(dir, "etc")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o600))
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()

	if b, err := ReadIn(t.Context(), root, "sub/inside.md", Memory); err != nil || string(b) != "- inside\n" {
		t.Fatalf("a symlink inside the folder: %q, %v", b, err)
	}
	for rel, want := range map[string]string{
		"MEMORY.md":   filepath.Join(dir, "MEMORY.md") + ": refused: leads outside its folder (" + filepath.Join(dir, "MEMORY.md") + " is a symlink to /etc/passwd; symlinks are followed only inside " + dir + ")",
		"etc/passwd":  "is a symlink to /etc;",
		"../x.md":     "refused: leads outside its folder (an absolute name or one with ..",
		"fifo.md":     "fifo.md: not a regular file (a FIFO)",
		"missing.md":  "no such file",
		"sub/../../x": "leads outside its folder",
		"/etc/passwd": "leads outside its folder",
	} {
		readfiletest.Returns(t, rel, func() error { _, err := ReadIn(t.Context(), root, rel, Memory); return err }, want)
	}
	_, err = ReadIn(t.Context(), root, "MEMORY.md", Memory)
	if !errors.Is(err, ErrOutside) {
		t.Errorf("an escaping link: %v, want ErrOutside", err)
	}
	if _, err := ReadIn(t.Context(), root, "missing.md", Memory); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestHeadInCutsAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", int(SkillResource.Max())+10)
	must(t, os.WriteFile(filepath.Join(dir, "long.md"), []byte(long), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "short.md"), []byte("short"), 0o600))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o600))
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	b, cut, err := HeadIn(t.Context(), root, "long.md", SkillResource)
	if err != nil || !cut || int64(len(b)) != SkillResource.Max() {
		t.Errorf("long: %d bytes, cut %v, %v", len(b), cut, err)
	}
	b, cut, err = HeadIn(t.Context(), root, "short.md", SkillResource)
	if err != nil || cut || string(b) != "short" {
		t.Errorf("short: %q, cut %v, %v", b, cut, err)
	}
	readfiletest.Returns(t, "fifo", func() error { _, _, err := HeadIn(t.Context(), root, "fifo.md", SkillResource); return err }, "not a regular file (a FIFO)")
}

func TestKindsAreDocumented(t *testing.T) {
	for _, k := range Kinds() {
		if k.Max() <= 0 || strings.Contains(k.String(), "unknown") {
			t.Errorf("kind %d: limit %d, name %q", k, k.Max(), k)
		}
	}
	if Episode.MaxLine() <= 0 || RunLog.MaxLine() <= 0 || Spec.MaxLine() != 0 {
		t.Error("only the line-by-line kinds bound a line")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
