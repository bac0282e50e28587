package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func writeExp(t *testing.T, dir, tool, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ExperienceDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(expPath(dir, tool), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSummaryOrder(t *testing.T) {
	dir := t.TempDir()
	writeExp(t, dir, "pick_up", `# Tool experience: pick_up

- [0.95 2026-10-01 t1] old but sure
- [0.70 2026-11-30 t5] newest, less sure
- [0.90 2026-11-30 t4] newest, surer
- [0.70 2026-11-30 t6] newest, less sure, later in the file
A person wrote this.
- [0.80 2026-11-02] middle
`)
	got, err := Summary(t.Context(), dir, "pick_up", 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"- A person wrote this.",
		"- newest, surer",
		"- newest, less sure, later in the file",
		"- newest, less sure",
		"- middle",
		"- old but sure",
	}, "\n")
	if got != want {
		t.Fatalf("Summary\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSummaryBounded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "- [0.80 2026-11-%02d] lesson number %d about grasping the handle ééé\n", 1+i%28, i)
	}
	writeExp(t, dir, "pick_up", b.String())
	full, err := Summary(t.Context(), dir, "pick_up", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 10, 30, 60, 61, 100, 250, 999} {
		got, err := Summary(t.Context(), dir, "pick_up", n)
		if err != nil {
			t.Fatal(err)
		}
		if c := utf8.RuneCountInString(got); c > n || c == 0 {
			t.Errorf("bound %d: %d characters: %q", n, c, got)
		}
		if n >= 100 {
			lines := strings.Split(got, "\n")
			if !strings.HasSuffix(lines[len(lines)-1], "more not shown)") {
				t.Errorf("bound %d: no note of what was left out: %q", n, got)
			}
			// What is shown is the head of the full ranking.
			shown := strings.Join(lines[:len(lines)-1], "\n")
			if !strings.HasPrefix(full, shown+"\n") {
				t.Errorf("bound %d: not the best-ranked entries: %q", n, shown)
			}
		}
	}
	if _, err := Summary(t.Context(), dir, "pick_up", 0); err == nil {
		t.Error("bound 0 accepted")
	}
}

func TestSummaryMissing(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "never-created")} {
		got, err := Summary(t.Context(), dir, "pick_up", 100)
		if err != nil || got != "" {
			t.Fatalf("%q %v", got, err)
		}
		got, err = MemorySummary(t.Context(), dir, 100)
		if err != nil || got != "" {
			t.Fatalf("%q %v", got, err)
		}
	}
}
