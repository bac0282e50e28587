package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/readfile/readfiletest"
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

// MEMORY.md and tool-experience files are read through the one reader: a
// link out of the folder (to /etc/passwd), a FIFO, /dev/zero or a file past
// the memory-file limit is refused at once, naming the file, and never
// reaches a summary or a consolidation.
func TestSummariesRefuseHostileFiles(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ExperienceDir), 0o755))
	for _, rel := range []string{MemoryFile, ExperienceDir + "/pick_up.md"} {
		read := func() error {
			var err error
			if rel == MemoryFile {
				_, err = MemorySummary(t.Context(), dir, 1000)
			} else {
				_, err = Summary(t.Context(), dir, "pick_up", 1000)
			}
			return err
		}
		p := filepath.Join(dir, rel)
		must(t, os.Symlink("/etc/passwd", p))
		readfiletest.Returns(t, rel+" -> /etc/passwd", read, p+": refused: leads outside its folder ("+p+" is a symlink to /etc/passwd")
		must(t, os.Remove(p))
		must(t, syscall.Mkfifo(p, 0o600))
		readfiletest.Returns(t, rel+" as a FIFO", read, p+": not a regular file (a FIFO)")
		must(t, os.Remove(p))
		readfiletest.Sparse(t, p, readfile.Memory.Max()+1)
		readfiletest.Returns(t, rel+" too large", read, p+": file too large: 4194305 bytes, larger than 4 MiB, the limit for a memory file")
		must(t, os.Remove(p))
	}
	// Consolidation reads MEMORY.md too: it fails rather than read outside.
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, MemoryFile)))
	s, err := NewStore(Config{Dir: dir, Threshold: 0.5})
	must(t, err)
	_, err = s.Append(t.Context(), "", []Entry{{Text: "A fact.", Confidence: 0.9}})
	if err == nil || !strings.Contains(err.Error(), "leads outside its folder") {
		t.Fatalf("Append over a MEMORY.md linked outside: %v", err)
	}
	if b, err := os.ReadFile("/etc/passwd"); err == nil && strings.Contains(string(b), "A fact.") {
		t.Fatal("Append wrote through the link")
	}
}
