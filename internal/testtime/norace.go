//go:build !race

package testtime

const raceFactor = 1

// Race reports whether the race detector is on.
const Race = false
