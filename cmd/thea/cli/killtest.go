package cli

import (
	"os"
	"strconv"
	"syscall"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// killAtEventEnv makes the process SIGKILL itself right after the run log
// wrote its k-th event (counted from 1 across the process): the resume
// chaos test's way to die at every event of a task in turn. It is a test
// hook only.
const killAtEventEnv = "THEA_TEST_KILL_AT_EVENT"

// killSink counts events and kills the process at the k-th.
type killSink struct {
	at int
	n  *int
}

func (s killSink) Write(runlog.Event) error {
	*s.n++
	if *s.n == s.at {
		// SIGKILL: no deferred function, no flush, no stop path runs.
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is delivered before anything else happens
	}
	return nil
}

func (killSink) Close() error { return nil }

// killAtEvent is the test hook's sink factory, nil when it is not set.
func killAtEvent() engine.SinkFactory {
	at, err := strconv.Atoi(os.Getenv(killAtEventEnv))
	if err != nil || at < 1 {
		return nil
	}
	n := new(int)
	return func(engine.TaskInfo) (engine.Sink, error) { return killSink{at: at, n: n}, nil }
}
