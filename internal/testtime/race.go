//go:build race

package testtime

// raceFactor: the race detector slows Go code 2–20×; a bounded wait grows
// with it.
const raceFactor = 4

// Race reports whether the race detector is on: a test that checks
// single-goroutine code over many random steps may take fewer under it.
const Race = true
