package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func grownFile(b *testing.B, n int) string {
	dir := b.TempDir()
	var sb strings.Builder
	sb.WriteString("# Tool experience: pick_up\n\n")
	for i := range n {
		fmt.Fprintf(&sb, "- [0.%02d 2026-11-%02d t%d] lesson %d: approach the handle from the front and pull slowly\n", 70+i%30, 1+i%28, i, i)
	}
	if err := os.MkdirAll(filepath.Join(dir, ExperienceDir), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(expPath(dir, "pick_up"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// One locked, fsynced append of one entry to a 100-entry file.
func BenchmarkAppend(b *testing.B) {
	dir := grownFile(b, 100)
	s, err := NewStore(Config{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := s.Append(b.Context(), "pick_up", []Entry{{Text: fmt.Sprintf("bench entry %d", i), Confidence: 0.8}}); err != nil {
			b.Fatal(err)
		}
	}
}

// The task-start read: a 100-entry file summarised to 800 characters.
func BenchmarkSummary(b *testing.B) {
	dir := grownFile(b, 100)
	for b.Loop() {
		if _, err := Summary(b.Context(), dir, "pick_up", 800); err != nil {
			b.Fatal(err)
		}
	}
}
