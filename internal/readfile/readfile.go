package readfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Size limits of the files Thea reads, documented in the README.
const (
	// MaxSpec bounds one spec file (.cue, .yaml, .json).
	MaxSpec = 4 << 20
	// MaxWorld bounds a simulator world file.
	MaxWorld = 4 << 20
	// MaxScript bounds a script provider's file of model turns.
	MaxScript = 16 << 20
	// MaxAnswers bounds a scripted user's answers file.
	MaxAnswers = 1 << 20
	// MaxSkill bounds one SKILL.md.
	MaxSkill = 1 << 20
)

// ErrNotRegular is returned for a device, FIFO, socket or directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file larger than the limit.
var ErrTooLarge = errors.New("file too large")

// Read returns the content of the regular file at path, at most limit bytes.
// The file is opened without blocking (a FIFO with no writer would otherwise
// hang the open) and checked on the open descriptor, so a swap between check
// and read cannot slip a device in. Errors name the path.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %w: %d bytes, larger than %s", path, ErrTooLarge, fi.Size(), human(limit))
	}
	// The size can change while reading; read one byte past the limit to
	// notice.
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: larger than %s", path, ErrTooLarge, human(limit))
	}
	return b, nil
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

func human(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
