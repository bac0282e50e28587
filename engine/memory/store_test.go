package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToolNameCannotEscape(t *testing.T) {
	bad := []string{"", "..", ".", "../x", "../../etc/passwd", "/etc/passwd", "a/b", `a\b`, "a\x00b", ".hidden",
		"x y", "tool\n", "é", strings.Repeat("a", MaxToolNameLen+1)}
	for _, name := range bad {
		if err := ValidToolName(name); err == nil {
			t.Errorf("ValidToolName(%q) accepted", name)
		}
		if _, err := Summary(t.Context(), t.TempDir(), name, 100); err == nil {
			t.Errorf("Summary(%q) accepted", name)
		}
		s, err := NewStore(Config{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if name == "" {
			continue // Append's "" is MEMORY.md
		}
		if _, err := s.Append(t.Context(), name, []Entry{{Text: "x", Confidence: 1}}); err == nil {
			t.Errorf("Append(%q) accepted", name)
		}
	}
	for _, name := range []string{"pick_up", "open-drawer", "nav.go_to", "A1", "_x", "-x", strings.Repeat("a", MaxToolNameLen)} {
		if err := ValidToolName(name); err != nil {
			t.Errorf("ValidToolName(%q): %v", name, err)
		}
	}
}

// A tool_experience directory that is a symlink out of the memory directory
// is refused for writing and for reading; nothing lands outside.
func TestSymlinkedExperienceDirRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "pick_up.md"), []byte("- [0.90 2026-11-30] secret outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ExperienceDir)); err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{answers: []any{`{"candidates":[{"scope":"tool","tool":"pick_up","entry":"escaped","confidence":0.9}]}`}}
	if _, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5}, testInput()); err == nil {
		t.Fatal("wrote through a symlink out of the memory dir")
	}
	if got := readFile(t, filepath.Join(outside, "pick_up.md")); strings.Contains(got, "escaped") {
		t.Fatalf("outside file changed: %q", got)
	}
	if names, _ := os.ReadDir(outside); len(names) != 1 {
		t.Fatalf("files created outside: %v", names)
	}
	if s, err := Summary(t.Context(), dir, "pick_up", 500); err == nil {
		t.Fatalf("read through a symlink out of the memory dir: %q", s)
	}
}

// A tool file that is itself a symlink to a file outside is refused too.
func TestSymlinkedExperienceFileRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "passwd")
	if err := os.WriteFile(target, []byte("root:x:0:0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ExperienceDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, expPath(dir, "pick_up")); err != nil {
		t.Fatal(err)
	}
	if s, err := Summary(t.Context(), dir, "pick_up", 500); err == nil {
		t.Fatalf("read through a symlinked file: %q", s)
	}
	st, _ := NewStore(Config{Dir: dir})
	if _, err := st.Append(t.Context(), "pick_up", []Entry{{Text: "x", Confidence: 1}}); err == nil {
		t.Fatal("wrote through a symlinked file")
	}
	if got := readFile(t, target); got != "root:x:0:0\n" {
		t.Fatalf("outside file changed: %q", got)
	}
}

// A fault after the temp file is synced and before the rename leaves the old
// file whole, and the next writer cleans up.
func TestFaultBeforeRenameKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	s, err := NewStore(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "first", Confidence: 0.9, Date: day}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, MemoryFile)
	before := readFile(t, path)
	var sawTemp bool
	s.beforeRename = func(rel, tmp string) error {
		b, err := os.ReadFile(filepath.Join(dir, tmp))
		sawTemp = err == nil && strings.Contains(string(b), "second")
		return errors.New("injected fault")
	}
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "second", Confidence: 0.9, Date: day}}); err == nil || !strings.Contains(err.Error(), "injected fault") {
		t.Fatalf("err %v", err)
	}
	if !sawTemp {
		t.Fatal("the hook did not see the synced temp file")
	}
	if got := readFile(t, path); got != before {
		t.Fatalf("old file changed:\n%s", got)
	}
	s.beforeRename = nil
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "second", Confidence: 0.9, Date: day}}); err != nil {
		t.Fatal(err)
	}
	if got := texts(entriesOf(t, path)); strings.Join(got, "|") != "first|second" {
		t.Fatalf("entries %q", got)
	}
	assertNoTemps(t, dir)
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAppendChecksEntries(t *testing.T) {
	s, err := NewStore(Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{{Text: " ", Confidence: 0.5}, {Text: "x", Confidence: 2}, {Text: "x", Confidence: 0.5, Task: "a b"}} {
		if _, err := s.Append(t.Context(), "", []Entry{e}); err == nil {
			t.Errorf("Append(%+v) accepted", e)
		}
	}
}

// Lines a person wrote stay as written and count for duplicates.
func TestPinnedLinesKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MemoryFile)
	own := "# Memory\n\nThe user gives robot tasks in Chinese.\n- [user-preference] Tea, not coffee.\n"
	if err := os.WriteFile(path, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := NewStore(Config{Dir: dir})
	added, err := s.Append(t.Context(), "", []Entry{{Text: "the user gives robot tasks in Chinese", Confidence: 0.9, Date: day}, {Text: "New fact.", Confidence: 0.8, Date: day}})
	if err != nil || len(added) != 1 || added[0].Text != "New fact." {
		t.Fatalf("%v %v", added, err)
	}
	if got := readFile(t, path); got != own+"- [0.80 2026-11-30] New fact.\n" {
		t.Fatalf("MEMORY.md:\n%s", got)
	}
}

func TestSymlinkedLockRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "planted"), filepath.Join(dir, LockFile)); err != nil {
		t.Fatal(err)
	}
	s, _ := NewStore(Config{Dir: dir})
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "x", Confidence: 1}}); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("err %v", err)
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Fatalf("created outside: %v", names)
	}
}
