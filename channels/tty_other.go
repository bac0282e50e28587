//go:build !linux

package channels

// isTerminal is false outside Linux: confirm then always opens the
// controlling terminal itself.
func isTerminal(uintptr) bool { return false }

// flushInput does nothing outside Linux; type-ahead lines are still discarded
// by time (see Terminal.Confirm).
func flushInput(uintptr) error { return nil }
