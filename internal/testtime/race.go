//go:build race

package testtime

// raceFactor: the race detector slows Go code 2–20×; a bounded wait grows
// with it.
const raceFactor = 4
