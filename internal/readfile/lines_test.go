package readfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/internal/testtime"
)

// collect reads every line of a sequence, or the error that ended it.
func collect(seq func(func(Line, error) bool)) ([]string, error) {
	var out []string
	for l, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, fmt.Sprintf("%d:%s", l.N, l.Text))
	}
	return out, nil
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("y", 3*chunk) // longer than the reader's buffer
	p := filepath.Join(dir, "events.jsonl")
	must(t, os.WriteFile(p, []byte("a\n\n"+long+"\nlast"), 0o600))
	got, err := collect(Lines(t.Context(), p, Episode))
	want := []string{"1:a", "2:", "3:" + long, "4:last"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %d lines, %v", len(got), err)
	}
	readfiletest.Refuses(t, "events.jsonl", func(p string) error {
		_, err := collect(Lines(t.Context(), p, Episode))
		return err
	})
	big := filepath.Join(dir, "big.jsonl")
	readfiletest.Sparse(t, big, Episode.Max()+1)
	if _, err := collect(Lines(t.Context(), big, Episode)); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the limit for an episode events file") {
		t.Errorf("a file past the limit: %v", err)
	}
}

// A line past the line bound and a file past the total bound are errors
// naming the file, the line and the limit (small limits, so the test
// writes little).
func TestLinesBounds(t *testing.T) {
	dir := t.TempDir()
	lim := limits{name: "test log", max: 200 << 10, line: 100 << 10}
	run := func(name, content string) ([]string, error) {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte(content), 0o600))
		f, err := os.Open(p)
		must(t, err)
		defer f.Close()
		var out []string
		var last error
		scanLines(t.Context(), f, p, lim, func(l Line, err error) bool {
			if err != nil {
				last = err
				return false
			}
			out = append(out, string(l.Text))
			return true
		})
		return out, last
	}
	_, err := run("longline", "ok\n"+strings.Repeat("z", 100<<10+1)+"\n")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "longline:2: file too large: a line longer than 100 KiB, the limit for one line of a test log") {
		t.Errorf("a long line: %v", err)
	}
	if _, err := run("exact", strings.Repeat("z", 100<<10)+"\n"); err != nil {
		t.Errorf("a line at the bound: %v", err)
	}
	many := strings.Repeat(strings.Repeat("w", 1000)+"\n", 250)
	if _, err := run("many", many); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 200 KiB, the limit for a test log") {
		t.Errorf("a file past the total bound: %v", err)
	}
}

// A cancelled context ends a read of a regular file between lines, and
// Read of an already cancelled context reads nothing.
func TestCancelledContextStopsReading(t *testing.T) {
	p := filepath.Join(t.TempDir(), "events.jsonl")
	must(t, os.WriteFile(p, []byte(strings.Repeat("{}\n", 100000)), 0o600))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	n := 0
	var err error
	for l, e := range Lines(ctx, p, Episode) {
		if e != nil {
			err = e
			break
		}
		n = l.N
		if n == 10 {
			cancel()
		}
	}
	if !errors.Is(err, context.Canceled) || n != 10 || !strings.Contains(err.Error(), "events.jsonl: reading stopped") {
		t.Errorf("after cancelling at line 10: last line %d, %v", n, err)
	}
	if _, err := Read(ctx, p, Episode); !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a cancelled context: %v", err)
	}
}

// A FIFO fed slowly (a writer that writes a line, then stalls with the
// FIFO open) holds a read forever; cancelling the context ends the waiting
// read promptly. The path API refuses FIFOs outright; this pins what stands
// behind it for any file whose reads can wait.
func TestCancelEndsAWaitingRead(t *testing.T) {
	for _, whole := range []bool{false, true} {
		t.Run(fmt.Sprintf("whole=%v", whole), func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "slow.jsonl")
			must(t, syscall.Mkfifo(fifo, 0o600))
			release, wrote := make(chan struct{}), make(chan struct{})
			defer close(release)
			go func() {
				defer close(wrote)
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					t.Error(err)
					return
				}
				defer w.Close()
				if _, err := w.Write([]byte("{\"kind\":\"task_start\"}\n{\"kind\":")); err != nil {
					t.Error(err)
				}
				wrote <- struct{}{}
				<-release // stall with the FIFO open: the reader sees no EOF
			}()
			f, err := os.Open(fifo)
			must(t, err)
			defer f.Close()
			<-wrote

			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				if whole {
					_, err := readAll(ctx, f, fifo, Episode.limits())
					errc <- err
					return
				}
				var last error
				scanLines(ctx, f, fifo, Episode.limits(), func(_ Line, err error) bool {
					last = err
					return err == nil
				})
				errc <- last
			}()
			waitForParkedRead(t)
			cancelled := time.Now()
			cancel()
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "slow.jsonl: reading stopped") {
					t.Errorf("got %v, want the cancellation naming the file", err)
				}
				if took := time.Since(cancelled); took > testtime.Scale(time.Second) {
					t.Errorf("the read ended %v after the cancel", took)
				}
			case <-time.After(testtime.Scale(time.Minute)):
				t.Fatal("a cancelled read of a stalled FIFO hangs")
			}
		})
	}
}

// waitForParkedRead returns once a goroutine of this package is parked in
// a read waiting for data (observed in the goroutine dump, not guessed by
// sleeping).
func waitForParkedRead(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(testtime.Scale(time.Minute))
	buf := make([]byte, 1<<20)
	for time.Now().Before(deadline) {
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "internal/poll.runtime_pollWait") && strings.Contains(g, "readfile.(*reader).Read") {
				return
			}
		}
		runtime.Gosched()
	}
	t.Fatal("no read ever waited on the FIFO")
}
