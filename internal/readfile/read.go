package readfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// chunk is the most one read asks for; the context is checked between
// chunks, so even a long read of a slow regular file stops promptly.
const chunk = 64 << 10

// Read returns the content of the regular file at path, refusing a file
// larger than k's limit. Errors name the path and, for a file too large,
// the limit.
func Read(ctx context.Context, path string, k Kind) ([]byte, error) {
	f, err := open(path, k.limits(), true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(ctx, f, path, k.limits())
}

// ReadIn is Read of rel under root: every element of rel, symlinks
// included, resolves inside the root's folder, so a link to /etc/passwd is
// refused (ErrOutside). A missing file is an error wrapping fs.ErrNotExist.
func ReadIn(ctx context.Context, root *os.Root, rel string, k Kind) ([]byte, error) {
	f, name, err := openIn(root, rel, k.limits(), true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(ctx, f, name, k.limits())
}

// HeadIn returns at most k.Max() bytes from the start of rel under root
// and whether the file was longer (cut): for text shown in part, such as a
// skill's resource. Only regular files are read.
func HeadIn(ctx context.Context, root *os.Root, rel string, k Kind) (b []byte, cut bool, err error) {
	f, name, err := openIn(root, rel, k.limits(), false)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	stop := interruptOnCancel(ctx, f)
	defer stop()
	b, err = io.ReadAll(io.LimitReader(&reader{ctx: ctx, f: f, name: name}, k.Max()+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(b)) > k.Max() {
		return b[:k.Max()], true, nil
	}
	return b, false, nil
}

// Check opens path as Read would and says why Read would refuse it (not a
// regular file, too large, missing or unreadable) without reading it:
// thea validate's check of the files a spec names.
func Check(path string, k Kind) error {
	f, err := open(path, k.limits(), true)
	if err != nil {
		return err
	}
	return f.Close()
}

// CheckIn is Check of rel under root (see ReadIn).
func CheckIn(root *os.Root, rel string, k Kind) error {
	f, _, err := openIn(root, rel, k.limits(), true)
	if err != nil {
		return err
	}
	return f.Close()
}

func readAll(ctx context.Context, f *os.File, name string, lim limits) ([]byte, error) {
	stop := interruptOnCancel(ctx, f)
	defer stop()
	hint := int64(chunk)
	if fi, err := f.Stat(); err == nil {
		hint = min(fi.Size(), lim.max) + 1
	}
	r := &reader{ctx: ctx, f: f, name: name}
	b := make([]byte, 0, hint)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, chunk)
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > lim.max {
			// The file grew while it was read.
			return nil, tooLarge(name, -1, lim)
		}
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// reader reads f at most a chunk at a time and stops once ctx is done.
type reader struct {
	ctx  context.Context
	f    *os.File
	name string
}

func (r *reader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, fmt.Errorf("%s: reading stopped: %w", r.name, context.Cause(r.ctx))
	}
	if len(p) > chunk {
		p = p[:chunk]
	}
	n, err := r.f.Read(p)
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return n, err
	case errors.Is(err, os.ErrDeadlineExceeded) && r.ctx.Err() != nil:
		return n, fmt.Errorf("%s: reading stopped: %w", r.name, context.Cause(r.ctx))
	}
	return n, fmt.Errorf("%s: %w", r.name, err)
}

// interruptOnCancel ends a read already waiting on f when ctx is done. It
// works on files the runtime polls (FIFOs, pipes, terminals); a regular
// file's read does not wait, and reader checks ctx between chunks.
func interruptOnCancel(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() {
		_ = f.SetReadDeadline(time.Now()) // os.ErrNoDeadline for a regular file: nothing waits
	})
}
