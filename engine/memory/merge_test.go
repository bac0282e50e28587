package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
)

const grown = `# Memory

Pinned by a person, never merged.
- [0.90 2026-11-01 t1] oldest and sure
- [0.60 2026-11-01 t2] oldest and unsure
- [0.80 2026-11-10 t3] middle
- [0.75 2026-11-20 t4] recent
`

const newFact = `{"candidates":[{"scope":"memory","entry":"Newest fact.","confidence":0.9}]}`

func setupGrown(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, MemoryFile)
	if err := os.WriteFile(path, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestGrownFileMergedOldestLeastConfidentFirst(t *testing.T) {
	dir, path := setupGrown(t)
	m := &fakeModel{answers: []any{newFact, `{"entries":[{"entry":"Merged: what the three old entries said.","confidence":0.99}]}`}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5, MaxEntries: 5}, testInput())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Merges) != 1 || res.Merges[0].Error != "" || res.Merges[0].Before != 6 || res.Merges[0].After != 4 {
		t.Fatalf("merges %+v", res.Merges)
	}
	if len(m.reqs) != 2 || m.reqs[1].Purpose != model.PurposeConsolidate {
		t.Fatalf("requests %d", len(m.reqs))
	}
	p := m.prompt(1)
	i1, i2, i3 := strings.Index(p, "1. [0.60 2026-11-01] oldest and unsure"), strings.Index(p, "2. [0.90 2026-11-01] oldest and sure"), strings.Index(p, "3. [0.80 2026-11-10] middle")
	if i1 < 0 || i2 < i1 || i3 < i2 || strings.Contains(p, "recent") || strings.Contains(p, "Pinned") {
		t.Fatalf("merge prompt does not list the three oldest, least confident first:\n%s", p)
	}
	want := `# Memory

Pinned by a person, never merged.
- [0.90 2026-11-10 merged] Merged: what the three old entries said.
- [0.75 2026-11-20 t4] recent
- [0.90 2026-11-30 t1] Newest fact.
`
	if got := readFile(t, path); got != want {
		t.Fatalf("MEMORY.md\n got:\n%s\nwant:\n%s", got, want)
	}
	if !strings.HasSuffix(res.String(), "; MEMORY.md merged from 6 to 4 entries") {
		t.Fatalf("String() %q", res.String())
	}
}

func TestGrownFileByBytes(t *testing.T) {
	dir, path := setupGrown(t)
	m := &fakeModel{answers: []any{newFact, `{"entries":[{"entry":"short","confidence":0.5}]}`}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5, MaxFileBytes: len(grown)}, testInput())
	if err != nil || len(res.Merges) != 1 || res.Merges[0].Error != "" {
		t.Fatalf("%+v %v", res, err)
	}
	if got := readFile(t, path); len(got) > len(grown) || !strings.Contains(got, "Pinned by a person") {
		t.Fatalf("MEMORY.md (%d bytes, bound %d):\n%s", len(got), len(grown), got)
	}
}

// Whatever goes wrong in a merge, the file keeps every entry; nothing is
// cut blindly.
func TestFailedMergeLeavesFileWhole(t *testing.T) {
	cases := []struct {
		name   string
		answer any
		why    string
	}{
		{"call fails", errors.New("timeout"), "the merge call failed: timeout"},
		{"not json", "Sure! I merged them.", "malformed merge answer"},
		{"not fewer", `{"entries":[{"entry":"a","confidence":0.5},{"entry":"b","confidence":0.5},{"entry":"c","confidence":0.5}]}`, "between 1 and 2"},
		{"empty", `{"entries":[]}`, "between 1 and 2"},
		{"bad confidence", `{"entries":[{"entry":"a","confidence":7}]}`, "outside 0..1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, path := setupGrown(t)
			m := &fakeModel{answers: []any{newFact, c.answer}}
			res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5, MaxEntries: 5}, testInput())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Merges) != 1 || !strings.Contains(res.Merges[0].Error, c.why) {
				t.Fatalf("merges %+v, want %q", res.Merges, c.why)
			}
			if got := readFile(t, path); got != grown+"- [0.90 2026-11-30 t1] Newest fact.\n" {
				t.Fatalf("MEMORY.md changed:\n%s", got)
			}
		})
	}
}

// changingModel edits the file while the merge call runs (another harness
// writing meanwhile).
type changingModel struct {
	fakeModel
	path string
}

func (c *changingModel) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if len(c.reqs) == 1 {
		b, err := os.ReadFile(c.path)
		if err != nil {
			return model.Response{}, err
		}
		s := strings.Replace(string(b), "- [0.80 2026-11-10 t3] middle\n", "", 1)
		if err := os.WriteFile(c.path, []byte(s), 0o644); err != nil {
			return model.Response{}, err
		}
	}
	return c.fakeModel.Generate(ctx, req)
}

func TestMergeAbandonedWhenFileChanged(t *testing.T) {
	dir, path := setupGrown(t)
	m := &changingModel{path: path, fakeModel: fakeModel{answers: []any{newFact, `{"entries":[{"entry":"merged","confidence":0.5}]}`}}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5, MaxEntries: 5}, testInput())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Merges) != 1 || !strings.Contains(res.Merges[0].Error, "changed during the merge") {
		t.Fatalf("merges %+v", res.Merges)
	}
	if got := readFile(t, path); strings.Contains(got, " merged] ") || !strings.Contains(got, "oldest and unsure") {
		t.Fatalf("MEMORY.md:\n%s", got)
	}
}

func TestPinnedOnlyFileNotMerged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MemoryFile)
	own := "a\nb\nc\nd\ne\n"
	if err := os.WriteFile(path, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{answers: []any{newFact}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5, MaxEntries: 3}, testInput())
	if err != nil || len(res.Merges) != 1 || !strings.Contains(res.Merges[0].Error, "fewer than two written entries") {
		t.Fatalf("%+v %v", res, err)
	}
	if len(m.reqs) != 1 {
		t.Fatal("a merge call was made with nothing to merge")
	}
}
