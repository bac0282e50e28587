package memory

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/thea-harness/thea/internal/readfile"
)

// File names under the memory directory.
const (
	MemoryFile    = "MEMORY.md"
	ExperienceDir = "tool_experience"
	// LockFile serialises writers across processes sharing the directory.
	LockFile = ".lock"
)

// MaxToolNameLen bounds a tool name used as a file name.
const MaxToolNameLen = 64

// toolNameRE: letters, digits, _ - . ; no leading dot, no separator, so a
// name is always one plain file inside tool_experience/.
var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9_.-]*$`)

// ValidToolName says why a tool name cannot name an experience file.
func ValidToolName(name string) error {
	switch {
	case name == "":
		return errors.New("tool name is empty")
	case len(name) > MaxToolNameLen:
		return fmt.Errorf("tool name %.20q… is %d bytes long, the bound is %d", name, len(name), MaxToolNameLen)
	case !toolNameRE.MatchString(name):
		return fmt.Errorf("tool name %q may hold only letters, digits, '_', '-' and '.' and may not start with '.'", name)
	}
	return nil
}

// experienceRel is a tool's file relative to the memory directory.
func experienceRel(tool string) (string, error) {
	if err := ValidToolName(tool); err != nil {
		return "", err
	}
	return path.Join(ExperienceDir, tool+".md"), nil
}

// Store is a memory directory. Every path is opened through an os.Root, so
// no name and no symlink inside the directory can reach a file outside it;
// writers hold the directory's file lock and replace files atomically.
type Store struct {
	cfg       Config
	lockRetry time.Duration
	// beforeRename is a fault-injection point for tests: called after the
	// temp file is written and synced, before it replaces the file.
	beforeRename func(rel, tmp string) error
}

// NewStore returns the store of a memory directory (created on first write).
func NewStore(cfg Config) (*Store, error) {
	switch {
	case cfg.Dir == "":
		return nil, errors.New("memory: no directory configured")
	case cfg.Threshold < 0 || cfg.Threshold > 1:
		return nil, fmt.Errorf("memory: threshold %v is outside 0..1", cfg.Threshold)
	case cfg.MaxEntries < 0 || cfg.MaxFileBytes < 0:
		return nil, errors.New("memory: negative file bound")
	}
	return &Store{cfg: cfg, lockRetry: 5 * time.Millisecond}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.cfg.Dir }

// read returns a file of the directory; a missing file (or directory) is
// empty. It takes no lock: writers replace files by rename, so a reader sees
// the old file or the new one, whole.
func (s *Store) read(ctx context.Context, rel string) (string, error) {
	r, err := readfile.OpenRoot(s.cfg.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("memory: %w", err)
	}
	defer r.Close()
	return readRel(ctx, r, rel)
}

// readRel reads through the one reader: a regular file within the limit
// of a memory file, resolved inside the directory (a MEMORY.md linked to
// /etc/passwd is refused, not read).
func readRel(ctx context.Context, r *os.Root, rel string) (string, error) {
	b, err := readfile.ReadIn(ctx, r, rel, readfile.Memory)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("memory: %w", err)
	}
	return string(b), nil
}

// locked runs fn with the directory's cross-process lock held.
func (s *Store) locked(ctx context.Context, fn func(r *os.Root) error) (err error) {
	if err := os.MkdirAll(s.cfg.Dir, 0o755); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	lock := filepath.Join(s.cfg.Dir, LockFile)
	// The lock is opened by path: refuse a symlink planted in its place.
	if fi, err := os.Lstat(lock); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("memory: %s is a symlink; refusing to follow it", lock)
	}
	fl := flock.New(lock)
	ok, err := fl.TryLockContext(ctx, s.lockRetry)
	if err != nil {
		return fmt.Errorf("memory: locking %s: %w", s.cfg.Dir, err)
	}
	if !ok {
		return fmt.Errorf("memory: could not lock %s", s.cfg.Dir)
	}
	defer func() {
		if uerr := fl.Unlock(); uerr != nil {
			err = errors.Join(err, fmt.Errorf("memory: unlocking %s: %w", s.cfg.Dir, uerr))
		}
	}()
	r, err := readfile.OpenRoot(s.cfg.Dir)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	defer r.Close()
	return fn(r)
}

// write replaces rel atomically: a temp file in the same directory, written
// and fsynced, renamed over rel, then the directory fsynced so the rename
// survives a power loss. The caller holds the lock, so temp files left by a
// writer that crashed are removed first.
func (s *Store) write(r *os.Root, rel string, data []byte) error {
	dir, base := path.Split(rel)
	dir = path.Clean(dir)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("memory: creating %s: %w", dir, err)
	}
	prefix := "." + base + ".tmp-"
	if err := removeStale(r, dir, prefix); err != nil {
		return err
	}
	tmp := path.Join(dir, prefix+rand.Text())
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("memory: creating a temp file for %s: %w", rel, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return errors.Join(fmt.Errorf("memory: writing %s: %w", tmp, err), removeTemp(r, tmp))
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return errors.Join(fmt.Errorf("memory: syncing %s: %w", tmp, err), removeTemp(r, tmp))
	}
	if err := f.Close(); err != nil {
		return errors.Join(fmt.Errorf("memory: closing %s: %w", tmp, err), removeTemp(r, tmp))
	}
	if s.beforeRename != nil {
		if err := s.beforeRename(rel, tmp); err != nil {
			return errors.Join(fmt.Errorf("memory: before replacing %s: %w", rel, err), removeTemp(r, tmp))
		}
	}
	if err := r.Rename(tmp, rel); err != nil {
		return errors.Join(fmt.Errorf("memory: replacing %s: %w", rel, err), removeTemp(r, tmp))
	}
	d, err := r.Open(dir)
	if err != nil {
		return fmt.Errorf("memory: opening %s to sync it: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("memory: syncing directory %s: %w", dir, err)
	}
	return nil
}

func removeTemp(r *os.Root, tmp string) error {
	if err := r.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("memory: removing %s: %w", tmp, err)
	}
	return nil
}

// removeStale deletes temp files a crashed writer left beside a file.
func removeStale(r *os.Root, dir, prefix string) error {
	d, err := r.Open(dir)
	if err != nil {
		return fmt.Errorf("memory: opening %s: %w", dir, err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return fmt.Errorf("memory: listing %s: %w", dir, err)
	}
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			if err := removeTemp(r, path.Join(dir, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// header is the first line of a new file (a heading, ignored when parsing).
func header(rel string) string {
	if rel == MemoryFile {
		return "# Memory"
	}
	return "# Tool experience: " + strings.TrimSuffix(path.Base(rel), ".md")
}

// appendEntries adds stamped entries to rel under the held lock, skipping
// duplicates; it writes only when something was added.
//
// Its read takes no context: the caller already holds the lock (taking it
// honoured the context), and the one reader refuses anything but a regular
// file within the limit, so the read cannot wait.
func (s *Store) appendEntries(r *os.Root, rel string, es []Entry) (added []int, err error) {
	text, err := readRel(context.Background(), r, rel)
	if err != nil {
		return nil, err
	}
	d := parseDoc(text)
	if len(d.lines) == 0 {
		d.lines = []string{header(rel), ""}
	}
	added = d.add(es)
	if len(added) == 0 {
		return nil, nil
	}
	if err := s.write(r, rel, []byte(d.String())); err != nil {
		return nil, err
	}
	return added, nil
}

// Append writes entries to MEMORY.md (tool "") or to a tool's experience
// file, under the lock, skipping entries already present. It is the plain
// write path; Consolidate uses it after scoring.
func (s *Store) Append(ctx context.Context, tool string, es []Entry) ([]Entry, error) {
	rel := MemoryFile
	if tool != "" {
		var err error
		if rel, err = experienceRel(tool); err != nil {
			return nil, fmt.Errorf("memory: %w", err)
		}
	}
	es = slices.Clone(es)
	today := dayOf(time.Now())
	for i := range es {
		if es[i].Date.IsZero() {
			es[i].Date = today
		}
		es[i].Date = dayOf(es[i].Date)
		t, err := cleanText(s.redact(es[i].Text))
		if err != nil {
			return nil, fmt.Errorf("memory: entry %d: %w", i+1, err)
		}
		es[i].Text = t
		if es[i].Confidence < 0 || es[i].Confidence > 1 {
			return nil, fmt.Errorf("memory: entry %d: confidence %v is outside 0..1", i+1, es[i].Confidence)
		}
		if es[i].Task != "" && !taskRE.MatchString(es[i].Task) {
			return nil, fmt.Errorf("memory: entry %d: task stamp %q may hold only letters, digits and _ . : -", i+1, es[i].Task)
		}
		es[i].Pinned = false
	}
	var added []Entry
	err := s.locked(ctx, func(r *os.Root) error {
		idx, err := s.appendEntries(r, rel, es)
		for _, i := range idx {
			added = append(added, es[i])
		}
		return err
	})
	return added, err
}

// dayOf is the UTC day of t, as stamped.
func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
