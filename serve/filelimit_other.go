//go:build !linux

package serve

// RaiseFileLimit is a no-op off Linux (the Go runtime raises the limit at
// start-up where it can); 0 means the limit is not known.
func RaiseFileLimit() (uint64, error) { return 0, nil }

// openFileLimit is 0: unknown, so the connection bound is the configured one.
func openFileLimit() uint64 { return 0 }
