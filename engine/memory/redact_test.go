package memory

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/redact"
)

// A number secret, a string secret and a card number a pattern matches.
const (
	memPIN   = "987654321012"
	memToken = "tok-memory-5e5e5e5e"
	memCard  = "4111111111111111"
)

func memRedactor() *redact.Redactor {
	return redact.New([]string{memPIN, memToken}, []*regexp.Regexp{regexp.MustCompile(`4111[0-9]{12}`)})
}

func assertNoMemorySecret(t *testing.T, path string) string {
	t.Helper()
	text := readFile(t, path)
	for _, s := range []string{memPIN, memToken, memCard} {
		if strings.Contains(text, s) {
			t.Errorf("%s carries %q:\n%s", filepath.Base(path), s, text)
		}
	}
	return text
}

// What a model writes back — consolidation candidates of both scopes, a
// merge's entries — and what Append is given are written without a
// secret; the same candidate at the next task is a duplicate of the
// redacted entry, not a new one.
func TestMemoryWritesNoSecret(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Dir: dir, Threshold: 0.5, MaxEntries: 4, Redactor: memRedactor()}
	cands := `{"candidates":[
		{"scope":"memory","entry":"The vault PIN is ` + memPIN + `, the card ` + memCard + `.","confidence":0.9},
		{"scope":"tool","tool":"pick_up","entry":"pick_up needs the token ` + memToken + `.","confidence":0.9}]}`
	m := &fakeModel{answers: []any{cands, cands}}
	res, err := Consolidate(t.Context(), m, cfg, testInput())
	if err != nil || len(res.Written) != 2 {
		t.Fatalf("result %+v, err %v", res, err)
	}
	if got := texts(entriesOf(t, filepath.Join(dir, MemoryFile))); !slices.Equal(got, []string{"The vault PIN is [redacted], the card [redacted]."}) {
		t.Fatalf("MEMORY.md entries %q", got)
	}
	assertNoMemorySecret(t, filepath.Join(dir, MemoryFile))
	if !strings.Contains(assertNoMemorySecret(t, expPath(dir, "pick_up")), "] pick_up needs the token [redacted].\n") {
		t.Fatalf("pick_up.md:\n%s", readFile(t, expPath(dir, "pick_up")))
	}
	res, err = Consolidate(t.Context(), m, cfg, testInput())
	if err != nil || len(res.Written) != 0 || len(res.Duplicates) != 2 {
		t.Fatalf("second consolidation: %+v, err %v", res, err)
	}

	// Append is given the secrets; then a merge's answer holds them.
	s, err := NewStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Append(t.Context(), "", []Entry{
		{Text: "Append: PIN " + memPIN, Confidence: 0.6, Date: day},
		{Text: "Append: card " + memCard + " and " + memToken, Confidence: 0.6, Date: day},
		{Text: "third", Confidence: 0.6, Date: day}, {Text: "fourth", Confidence: 0.6, Date: day}})
	if err != nil {
		t.Fatal(err)
	}
	assertNoMemorySecret(t, filepath.Join(dir, MemoryFile))
	merge := `{"entries":[{"entry":"Merged: PIN ` + memPIN + ` card ` + memCard + ` token ` + memToken + `","confidence":0.8}]}`
	m = &fakeModel{answers: []any{`{"candidates":[{"scope":"memory","entry":"A fifth fact.","confidence":0.9}]}`, merge}}
	res, err = Consolidate(t.Context(), m, cfg, testInput())
	if err != nil || len(res.Merges) != 1 || res.Merges[0].Error != "" {
		t.Fatalf("merge: %+v, err %v", res, err)
	}
	if p := m.prompt(1); !strings.Contains(p, "] Append: PIN [redacted]") || !strings.Contains(p, "] Append: card [redacted] and [redacted]") {
		t.Errorf("the merge prompt lacks the appended entries, redacted:\n%s", p)
	}
	if text := assertNoMemorySecret(t, filepath.Join(dir, MemoryFile)); !strings.Contains(text, "] Merged: PIN [redacted] card [redacted] token [redacted]\n") {
		t.Errorf("MEMORY.md lacks the merged entry, redacted:\n%s", text)
	}
}
