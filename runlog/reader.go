package runlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"

	"github.com/thea-harness/thea/internal/readfile"
)

// Record is one non-blank line of a run log and where it was read, so
// every reader's error names the file and the line.
type Record struct {
	Path string
	N    int
	// Raw is the line as written (a copy: it outlives the read).
	Raw []byte
}

// Errorf is an error about this line: "path:line: ...".
func (r Record) Errorf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %w", r.Path, r.N, fmt.Errorf(format, a...))
}

// Decode decodes the line into v (a reader's own view of some fields).
func (r Record) Decode(v any) error {
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return r.Errorf("not an event: %w", err)
	}
	return nil
}

// Line decodes the whole line; a line that is not an event, or has no
// kind, is an error naming it.
func (r Record) Line() (Line, error) {
	var l Line
	if err := r.Decode(&l); err != nil {
		return Line{}, err
	}
	if l.Kind == "" {
		return Line{}, r.Errorf("an event without a kind")
	}
	return l, nil
}

// Read reads the run log rel under root (events.jsonl of a run directory,
// or an episode's) line by line, skipping blank lines, within k's bounds:
// a regular file inside root (a symlink must not lead out of it); a done
// ctx ends the read. The sequence ends after yielding an error.
func Read(ctx context.Context, root *os.Root, rel string, k readfile.Kind) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		path := filepath.Join(root.Name(), rel)
		for l, err := range readfile.LinesIn(ctx, root, rel, k) {
			if err != nil {
				// readfile's error names the file and, for a line, its number.
				yield(Record{Path: path}, err)
				return
			}
			raw := bytes.TrimSpace(l.Text)
			if len(raw) == 0 {
				continue
			}
			if !yield(Record{Path: path, N: l.N, Raw: bytes.Clone(raw)}, nil) {
				return
			}
		}
	}
}

// ReadDir reads dir/events.jsonl as Read does.
func ReadDir(ctx context.Context, dir string, k readfile.Kind) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		root, err := readfile.OpenRoot(dir)
		if err != nil {
			yield(Record{Path: filepath.Join(dir, EventsFile)}, fmt.Errorf("run directory %s: %w", dir, err))
			return
		}
		defer root.Close()
		for r, err := range Read(ctx, root, EventsFile, k) {
			if !yield(r, err) || err != nil {
				return
			}
		}
	}
}

// Parse reads a run log already in memory as Read does; path names it in
// errors.
func Parse(path string, b []byte, k readfile.Kind) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 64*1024), k.MaxLine())
		n := 0
		for sc.Scan() {
			n++
			raw := bytes.TrimSpace(sc.Bytes())
			if len(raw) == 0 {
				continue
			}
			if !yield(Record{Path: path, N: n, Raw: bytes.Clone(raw)}, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("line %d is longer than %d bytes", n+1, k.MaxLine())
			}
			yield(Record{Path: path, N: n + 1}, fmt.Errorf("%s: %w", path, err))
		}
	}
}
