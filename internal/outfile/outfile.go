package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/thea-harness/thea/internal/readfile"
)

// ErrNotRegular is wrapped by the error for an output path that exists and
// is not a regular file (a FIFO, a device, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// Check reports whether path may be written: it does not exist (a dangling
// symbolic link counts as not existing), or it is, or links to, a regular
// file. It opens nothing, so a FIFO is refused without blocking.
func Check(path string) error {
	_, err := target(path)
	return err
}

// CheckDir reports whether files may be written into dir: it does not
// exist or is a directory (or links to one). Like Check it opens nothing:
// listing a FIFO would wait for a writer.
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("output folder %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("output folder %s: it is %s, not a folder: refusing to write there", dir, readfile.ModeName(fi.Mode()))
	}
	return nil
}

// target is the file a write to path replaces: path itself, or the regular
// file a symbolic link at path resolves to, so a link is written through as
// a plain write would be, and a link to a device is refused like the device.
func target(path string) (string, error) {
	if path == "" {
		return "", errors.New("no output path given")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", fmt.Errorf("output %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("output %s: %w (it is %s): refusing to write to it; name a new file or a regular one", path, ErrNotRegular, readfile.ModeName(fi.Mode()))
	}
	li, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("output %s: %w", path, err)
	}
	if li.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("output %s: %w", path, err)
	}
	return resolved, nil
}

// Write replaces path with b: a temporary file beside it, written, synced
// and given perm, is renamed over it, so a reader never sees half a file.
// A path that exists and is not a regular file is refused before anything
// is created.
func Write(path string, b []byte, perm fs.FileMode) error {
	dest, err := target(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		return errors.Join(fmt.Errorf("writing %s: %w", path, err), os.Remove(tmp))
	}
	// Checked again just before the rename: the path may have changed while
	// the file was written.
	if _, err := target(dest); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	if err := os.Rename(tmp, dest); err != nil {
		return errors.Join(fmt.Errorf("writing %s: %w", path, err), os.Remove(tmp))
	}
	return nil
}
