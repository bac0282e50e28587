package testtime

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// ScaleEnv multiplies every scaled timeout (a positive number, default 1),
// for a machine slower or busier than CI's.
const ScaleEnv = "THEA_TEST_TIMEOUT_SCALE"

// loadFactor: CI and developers run on 2 cores, often with a second test
// run or a build beside the suite; a timeout is a bound on a hang, never a
// measurement, so it is generous.
const loadFactor = 3

// Scale returns d scaled for the race detector, a loaded machine and
// THEA_TEST_TIMEOUT_SCALE. Use it for every timeout a test sets: a
// tool's, a back-end's start, a wait for an event that is observable.
func Scale(d time.Duration) time.Duration {
	f := float64(raceFactor * loadFactor)
	if v, err := strconv.ParseFloat(os.Getenv(ScaleEnv), 64); err == nil && v > 0 {
		f *= v
	}
	return time.Duration(float64(d) * f)
}

// PollDeadline bounds Wait: it only keeps a broken test from hanging.
const PollDeadline = 10 * time.Second

// Wait polls cond until it holds, failing the test (naming what) once the
// scaled PollDeadline has passed. Use it for a state the test can observe
// (a file written, a motion ended), never to let time pass.
func Wait(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Scale(PollDeadline))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v: %s never happened", Scale(PollDeadline), what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
