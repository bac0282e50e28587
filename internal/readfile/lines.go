package readfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
)

// Line is one line of a line-by-line file.
type Line struct {
	// N is the line's number, from 1.
	N int
	// Text is the line without its newline. It is valid only until the
	// next line is read: copy what must outlive it.
	Text []byte
}

// Lines reads the regular file at path line by line (JSONL: episodes and
// run logs), bounding the file by k.Max() and each line by k.MaxLine().
// The sequence ends after yielding an error; an error names the file and,
// for a line, its number. A done ctx ends the sequence at the next read.
func Lines(ctx context.Context, path string, k Kind) iter.Seq2[Line, error] {
	return func(yield func(Line, error) bool) {
		f, err := open(path, k.limits(), true)
		if err != nil {
			yield(Line{}, err)
			return
		}
		defer f.Close()
		scanLines(ctx, f, path, k.limits(), yield)
	}
}

// LinesIn is Lines of rel under root (see ReadIn).
func LinesIn(ctx context.Context, root *os.Root, rel string, k Kind) iter.Seq2[Line, error] {
	return func(yield func(Line, error) bool) {
		f, name, err := openIn(root, rel, k.limits(), true)
		if err != nil {
			yield(Line{}, err)
			return
		}
		defer f.Close()
		scanLines(ctx, f, name, k.limits(), yield)
	}
}

// scanLines yields f's lines; it reads any open file, so the context's
// hold on a waiting read can be tested with a FIFO.
func scanLines(ctx context.Context, f *os.File, name string, lim limits, yield func(Line, error) bool) {
	stop := interruptOnCancel(ctx, f)
	defer stop()
	maxLine := lim.line
	if maxLine <= 0 {
		maxLine = int(lim.max)
	}
	cr := &countingReader{r: &reader{ctx: ctx, f: f, name: name}}
	rd := bufio.NewReaderSize(cr, chunk)
	var long []byte // a line longer than the buffer, gathered
	for n := 1; ; {
		if err := ctx.Err(); err != nil {
			yield(Line{}, fmt.Errorf("%s: reading stopped: %w", name, context.Cause(ctx)))
			return
		}
		part, err := rd.ReadSlice('\n')
		if cr.n > lim.max {
			yield(Line{}, tooLarge(name, -1, lim))
			return
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, part...)
			if len(long) > maxLine {
				yield(Line{}, fmt.Errorf("%s:%d: %w: a line longer than %s, the limit for one line of %s", name, n, ErrTooLarge, Human(int64(maxLine)), article(lim.name)))
				return
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			yield(Line{}, err)
			return
		}
		text := part
		if long != nil {
			text = append(long, part...)
		}
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		}
		if len(text) > maxLine {
			yield(Line{}, fmt.Errorf("%s:%d: %w: a line longer than %s, the limit for one line of %s", name, n, ErrTooLarge, Human(int64(maxLine)), article(lim.name)))
			return
		}
		if len(part) > 0 || long != nil {
			if !yield(Line{N: n, Text: text}, nil) {
				return
			}
		}
		if err != nil { // io.EOF
			return
		}
		long = nil
		n++
	}
}

// countingReader counts the bytes read, so the whole file is bounded even
// when it grows while it is read.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
