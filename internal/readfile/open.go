package readfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNotRegular is returned for a device, FIFO, socket or directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file or a line larger than its kind's limit.
var ErrTooLarge = errors.New("file too large")

// ErrOutside is returned for a name under a root that a symlink leads out
// of the root.
var ErrOutside = errors.New("leads outside its folder")

// open opens path without blocking (a FIFO with no writer would otherwise
// hang the open) and checks the open descriptor, so a swap between check
// and read cannot slip a device in. whole: the file is read whole, so a
// file larger than the kind's limit is refused before reading.
func open(p string, lim limits, whole bool) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := check(f, p, lim, whole); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openIn opens rel under root as open does. The root resolves every
// element, symlinks included, inside its folder only. It returns the name
// errors use: the root's folder joined with rel.
func openIn(root *os.Root, rel string, lim limits, whole bool) (*os.File, string, error) {
	name := filepath.Join(root.Name(), filepath.FromSlash(rel))
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, name, rootError(root, rel, name, err)
	}
	if err := check(f, name, lim, whole); err != nil {
		f.Close()
		return nil, name, err
	}
	return f, name, nil
}

// escapes is the text of os.Root's (unexported) error for a name that
// leads outside the root.
const escapes = "path escapes from parent"

// rootError says why rel could not be opened under root, naming the file
// by its full name and, for an escape, the symlink that leads out.
func rootError(root *os.Root, rel, name string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Err == nil || pe.Err.Error() != escapes {
		if errors.As(err, &pe) {
			return &fs.PathError{Op: "open", Path: name, Err: pe.Err}
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	why := "an absolute name or one with .."
	if link, target, ok := firstSymlink(root.Name(), rel); ok {
		why = fmt.Sprintf("%s is a symlink to %s", link, target)
	}
	return fmt.Errorf("%s: refused: %w (%s; symlinks are followed only inside %s)", name, ErrOutside, why, root.Name())
}

// firstSymlink finds the first element of rel under dir that is a symlink,
// to name it in an error. It reads only link names, never a file.
func firstSymlink(dir, rel string) (link, target string, ok bool) {
	cur := dir
	for _, el := range strings.Split(path.Clean(filepath.ToSlash(rel)), "/") {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", "", false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			t, err := os.Readlink(cur)
			if err != nil {
				return "", "", false
			}
			return cur, t, true
		}
	}
	return "", "", false
}

func check(f *os.File, name string, lim limits, whole bool) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, ModeName(fi.Mode()))
	}
	if whole && fi.Size() > lim.max {
		return tooLarge(name, fi.Size(), lim)
	}
	return nil
}

// tooLarge names the file, its size when known (n >= 0) and the kind's
// limit.
func tooLarge(name string, n int64, lim limits) error {
	size := "more bytes"
	if n >= 0 {
		size = fmt.Sprintf("%d bytes", n)
	}
	return fmt.Errorf("%s: %w: %s, larger than %s, the limit for %s", name, ErrTooLarge, size, Human(lim.max), article(lim.name))
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// ModeName names a file's type for a person ("a FIFO", "a directory"), for
// the errors of every reader and writer of Thea's files.
func ModeName(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "a " + m.Type().String() + " file"
}

// Human writes a byte count as the manual does: "4 MiB", "32 KiB".
func Human(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// OpenRoot opens dir as a root for ReadIn, LinesIn and HeadIn. os.OpenRoot
// opens a FIFO named like the folder and waits for a writer; dir is first
// opened without blocking and as a directory only, so a FIFO or a device in
// its place is an error at once. (Were it swapped for a FIFO between the two
// opens, the second would wait: only someone who may already write the
// folder's parent can do that.)
func OpenRoot(dir string) (*os.Root, error) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			if fi, serr := os.Stat(dir); serr == nil {
				return nil, fmt.Errorf("%s: not a folder (%s): %w", dir, ModeName(fi.Mode()), syscall.ENOTDIR)
			}
		}
		return nil, err
	}
	f.Close()
	return os.OpenRoot(dir)
}
