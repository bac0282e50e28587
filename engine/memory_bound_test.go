package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A MEMORY.md of 3 MiB (under the memory-file limit) reaches Resident
// context through the bounded summary: at most memory.memory_chars
// characters, the rest counted, never the file itself.
func TestLongMemoryIsSummarisedToItsBound(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.spec.Memory.Dir = "mem"
	f.spec.Memory.MemoryChars = 2000
	dir := filepath.Join(f.spec.Dir, "mem")
	must(t, os.MkdirAll(dir, 0o755))
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	n := 0
	for b.Len() < 3<<20 {
		n++
		fmt.Fprintf(&b, "- [0.80 2026-01-01 t1] The drawer number %d sticks; pull it twice before giving up on it.\n", n)
	}
	must(t, os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(b.String()), 0o644))
	h := f.harness(t)
	if _, err := h.Run(t.Context(), "open the drawer"); err != nil {
		t.Fatal(err)
	}
	sys := f.decide.requests()[0].Messages[0].Text()
	_, mem, ok := strings.Cut(sys, "Memory (from earlier tasks):\n")
	if !ok {
		t.Fatalf("no memory in Resident context:\n%.500s", sys)
	}
	mem, _, _ = strings.Cut(mem, "\n\n")
	if len([]rune(mem)) > 2000 || !strings.HasSuffix(mem, "more not shown)") || !strings.Contains(mem, "- The drawer number") {
		t.Fatalf("memory in Resident context: %d characters (bound 2000), ends %q", len([]rune(mem)), mem[max(0, len(mem)-60):])
	}
	if len(sys) > 20000 {
		t.Fatalf("Resident context is %d bytes for a 3 MiB MEMORY.md", len(sys))
	}
}

// A 30 MB MEMORY.md is refused by size: the task does not start, and the
// error names the file and the limit.
func TestHugeMemoryIsRefused(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.spec.Memory.Dir = "mem"
	dir := filepath.Join(f.spec.Dir, "mem")
	must(t, os.MkdirAll(dir, 0o755))
	fh, err := os.Create(filepath.Join(dir, "MEMORY.md"))
	must(t, err)
	must(t, fh.Truncate(30<<20))
	must(t, fh.Close())
	h := f.harness(t)
	rep, err := h.Run(t.Context(), "open the drawer")
	if err == nil || !strings.Contains(rep.Error, "MEMORY.md: file too large: 31457280 bytes, larger than 4 MiB, the limit for a memory file") {
		t.Fatalf("report %+v, error %v", rep, err)
	}
	if n := len(f.decide.requests()); n != 0 {
		t.Fatalf("%d model requests for a refused MEMORY.md", n)
	}
}
