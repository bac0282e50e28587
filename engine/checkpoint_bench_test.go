package engine_test

import "testing"

// BenchmarkTurnAt1000RunLog is TurnAt1000 with the run log on: each turn
// also writes its events and its checkpoint (encoded, synced, renamed).
func BenchmarkTurnAt1000RunLog(b *testing.B) {
	dir := b.TempDir()
	benchTurns(b, 1000, 500, func(f *fixture) {
		f.spec.RunLog.Enabled, f.spec.RunLog.Dir = true, dir
	})
}
