package readfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The one reader against os.ReadFile on an 8 MiB event log: reading it
// whole, and line by line.
func BenchmarkRead(b *testing.B) {
	p := filepath.Join(b.TempDir(), "events.jsonl")
	line := `{"kind":"tool_result","turn":3,"text":"` + strings.Repeat("x", 400) + `"}` + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(line, (8<<20)/len(line))), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Read", func(b *testing.B) {
		for b.Loop() {
			if _, err := Read(b.Context(), p, Episode); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Lines", func(b *testing.B) {
		for b.Loop() {
			for _, err := range Lines(b.Context(), p, Episode) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
