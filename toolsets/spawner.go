package toolsets

import (
	"runtime"
	"sync"
)

// spawner starts back-end processes from one goroutine locked to its OS
// thread for the toolset's lifetime. Linux's parent-death signal fires when
// the thread that forked the child exits, not the process: a runtime thread
// can exit under us (a locked goroutine ending without unlocking takes its
// thread with it), killing a healthy back-end. The spawner's thread lives
// until stop, and its exit then ends the back-ends it started.
type spawner struct {
	mu      sync.Mutex // serialises run and stop
	reqs    chan func()
	stopped bool
}

func newSpawner() *spawner {
	s := &spawner{reqs: make(chan func())}
	go func() {
		runtime.LockOSThread()
		// Never unlocked: when reqs is closed the goroutine ends and the
		// runtime ends its thread with it.
		for f := range s.reqs {
			f()
		}
	}()
	return s
}

// run calls f on the spawner's thread and waits for it; false when stopped.
func (s *spawner) run(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	done := make(chan struct{})
	s.reqs <- func() {
		defer close(done)
		f()
	}
	<-done
	return true
}

// stop ends the thread; later runs do nothing.
func (s *spawner) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.stopped = true
		close(s.reqs)
	}
}
