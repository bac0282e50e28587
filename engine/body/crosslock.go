package body

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/schema"
)

// crossLockPoll is how often a waiting process retries the body's file lock.
const crossLockPoll = 5 * time.Millisecond

// crossLock is the body's file lock, shared by the process's motions: it is
// taken when the first motion begins and released when the last one ends, so
// two processes driving one body never move it at the same time. The kernel
// releases it when the process dies, even by kill -9.
type crossLock struct {
	mu      sync.Mutex
	fl      *flock.Flock
	path    string
	refuse  bool
	timeout time.Duration
	held    int
}

// newCrossLock returns the lock e declares, or nil for mode "none" or a body
// with no name to key it.
func newCrossLock(e schema.Embodiment) *crossLock {
	name := e.Lock.Name
	if name == "" {
		name = e.Name
	}
	if e.Lock.Mode == "none" || name == "" {
		return nil
	}
	dir := e.Lock.Dir
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "thea-body-"+safeName(name)+".lock")
	return &crossLock{fl: flock.New(path), path: path, refuse: e.Lock.Mode == "refuse", timeout: e.Lock.Timeout.D()}
}

// safeName keeps a lock name usable as a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

func (x *crossLock) acquire(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.held > 0 {
		x.held++
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(x.path), 0o755); err != nil {
		return fmt.Errorf("the body lock %s: %w", x.path, err)
	}
	var ok bool
	var err error
	if x.refuse {
		ok, err = x.fl.TryLock()
	} else {
		wctx := ctx
		if x.timeout > 0 {
			var cancel context.CancelFunc
			wctx, cancel = context.WithTimeout(ctx, x.timeout)
			defer cancel()
		}
		ok, err = x.fl.TryLockContext(wctx, crossLockPoll)
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fmt.Errorf("waited for the body lock %s: another process (%s) is driving this body: %w", x.path, x.owner(), err)
		}
	}
	if err != nil {
		return fmt.Errorf("the body lock %s: %w", x.path, err)
	}
	if !ok {
		return fmt.Errorf("another process (%s) is driving this body (lock %s, embodiment.lock.mode refuse): wait for it to finish or stop it", x.owner(), x.path)
	}
	x.held = 1
	// Best effort: only the refusal message of another process reads it.
	_ = os.WriteFile(x.path+".owner", fmt.Appendf(nil, "pid %d since %s", os.Getpid(), time.Now().Format(time.TimeOnly)), 0o644)
	return nil
}

// owner reads the note another process left; it sits in a shared folder
// (the system temp dir by default), so it is read as any hostile file: a
// FIFO or a device planted there is refused, not waited on. It takes no
// context: it names the owner in the error of a wait that the context may
// just have ended.
func (x *crossLock) owner() string {
	b, err := readfile.Read(context.Background(), x.path+".owner", readfile.LockOwner)
	// An empty note is one being written: the other process took the lock
	// a moment ago.
	if note := strings.TrimSpace(string(b)); err == nil && note != "" {
		return note
	}
	return "unknown pid"
}

func (x *crossLock) release() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.held == 0 {
		return nil
	}
	x.held--
	if x.held == 0 {
		if err := x.fl.Unlock(); err != nil {
			return fmt.Errorf("releasing the body lock %s: %w", x.path, err)
		}
	}
	return nil
}
