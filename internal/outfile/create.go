package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is wrapped by Create's error for a path that exists: a file,
// a directory, or a symbolic link (dangling or not), which is never
// written through.
var ErrExists = errors.New("exists")

// Create writes b to path, which must not exist, atomically: a temporary
// file beside it is written, synced and given perm, then linked to path
// with link(2), which fails when anything is at path, a symbolic link
// included, and never follows one. So a file created, or a link planted,
// after a caller's own check is refused rather than replaced or written
// through, and no reader sees half a file.
func Create(path string, b []byte, perm fs.FileMode) error {
	if path == "" {
		return errors.New("no output path given")
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
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
	lerr := os.Link(tmp, path)
	rerr := os.Remove(tmp)
	switch {
	case errors.Is(lerr, fs.ErrExist):
		return fmt.Errorf("%s %w: refusing to replace it or write through it; remove it or choose another path", path, ErrExists)
	case lerr != nil:
		return errors.Join(fmt.Errorf("writing %s: %w", path, lerr), rerr)
	case rerr != nil:
		return fmt.Errorf("writing %s: removing its temporary file: %w", path, rerr)
	}
	return nil
}

// CreateDir makes the folder dir, which must not exist: an existing
// folder, file or symbolic link there is refused (mkdir(2) follows no
// link), so nothing written into it lands outside where it was asked for.
func CreateDir(dir string, perm fs.FileMode) error {
	err := os.Mkdir(dir, perm)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s %w: refusing to write into it; remove it or choose another folder", dir, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("making %s: %w", dir, err)
	}
	return nil
}
