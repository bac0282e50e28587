//go:build race

package redact_test

// raceEnabled: the race detector disables sync.Pool reuse (json.Valid's
// scanner), so allocation counts do not hold under it.
const raceEnabled = true
