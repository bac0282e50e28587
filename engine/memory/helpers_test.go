package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
)

// fakeModel answers each call with the next scripted text (or error) and
// records the requests.
type fakeModel struct {
	mu      sync.Mutex
	answers []any // string or error
	reqs    []model.Request
}

func (f *fakeModel) Generate(_ context.Context, req model.Request) (model.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if len(f.answers) == 0 {
		return model.Response{}, errors.New("fake model: no answer scripted")
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	if err, ok := a.(error); ok {
		return model.Response{}, err
	}
	return model.Response{Text: a.(string)}, nil
}

func (f *fakeModel) prompt(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, m := range f.reqs[i].Messages {
		b.WriteString(m.Text())
		b.WriteString("\n")
	}
	return b.String()
}

var day = time.Date(2026, 11, 30, 15, 4, 0, 0, time.UTC)

func testInput() Input {
	return Input{
		Notes: Notes{Goal: "put the mug in the drawer", Phase: "done",
			Timeline: []string{"turn 1: open_drawer: success", "turn 2: pick_up(mug): failed: out of reach", "turn 3: pick_up(mug): success"}},
		Evidence: []string{"turn 2 verdict pick_up: failure (gripper closed on nothing)", "turn 3 verdict pick_up: success"},
		Tools:    []string{"open_drawer", "pick_up", "query_user"},
		Task:     "t1",
		Now:      day,
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entriesOf parses a memory file and fails on any line that is neither a
// heading, blank, nor a stamped entry: the file must be well-formed.
func entriesOf(t *testing.T, path string) []Entry {
	t.Helper()
	d := parseDoc(readFile(t, path))
	for _, e := range d.entries {
		if e.Pinned {
			t.Fatalf("%s: malformed line %q", path, d.lines[e.line])
		}
	}
	return d.entries
}

func texts(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text
	}
	return out
}

func expPath(dir, tool string) string { return filepath.Join(dir, ExperienceDir, tool+".md") }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
