package memory

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
)

func TestConsolidateWritesOnlyAtOrAboveThreshold(t *testing.T) {
	dir := t.TempDir()
	m := &fakeModel{answers: []any{`{"candidates":[
		{"scope":"memory","entry":"The user keeps mugs in the top drawer.","confidence":0.9},
		{"scope":"memory","entry":"The kitchen light was on.","confidence":0.3},
		{"scope":"tool","tool":"pick_up","entry":"Move within 0.5 m of the object before picking it up.","confidence":0.7},
		{"scope":"tool","tool":"open_drawer","entry":"A drawer may stick.","confidence":0.69}]}`}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.7}, testInput())
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejected != "" || res.Proposed != 4 || len(res.Written) != 2 || len(res.Below) != 2 {
		t.Fatalf("result %+v", res)
	}
	mem := entriesOf(t, filepath.Join(dir, MemoryFile))
	if got := texts(mem); !slices.Equal(got, []string{"The user keeps mugs in the top drawer."}) {
		t.Fatalf("MEMORY.md entries %q", got)
	}
	if mem[0].Confidence != 0.9 || mem[0].Task != "t1" || mem[0].Date.Format(dateLayout) != "2026-11-30" {
		t.Fatalf("stamp %+v", mem[0])
	}
	if got := texts(entriesOf(t, expPath(dir, "pick_up"))); len(got) != 1 || !strings.HasPrefix(got[0], "Move within") {
		t.Fatalf("pick_up entries %q", got)
	}
	if _, err := os.Stat(expPath(dir, "open_drawer")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file for a tool with only a below-threshold lesson: %v", err)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, MemoryFile)), "- [0.90 2026-11-30 t1] The user keeps mugs in the top drawer.\n") {
		t.Fatalf("MEMORY.md:\n%s", readFile(t, filepath.Join(dir, MemoryFile)))
	}
	want := "memory: 2 of 4 candidates written, 2 below threshold (MEMORY.md +1, tool_experience/pick_up.md +1)"
	if res.String() != want {
		t.Fatalf("String()\n got %q\nwant %q", res.String(), want)
	}
	if len(m.reqs) != 1 || m.reqs[0].Purpose != model.PurposeConsolidate {
		t.Fatalf("requests %+v", m.reqs)
	}
}

func TestConsolidatePromptCarriesNotesEvidenceAndAnswers(t *testing.T) {
	dir := t.TempDir()
	in := testInput()
	in.Answers = []Answer{{Question: "Which drawer do you keep mugs in?", Answer: "the top one"}}
	m := &fakeModel{answers: []any{`{"candidates":[]}`}}
	res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.75}, in)
	if err != nil || res.Rejected != "" || len(res.Written) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	p := m.prompt(0)
	for _, want := range []string{"Goal: put the mug in the drawer", "turn 2: pick_up(mug): failed: out of reach",
		"verdict pick_up: failure (gripper closed on nothing)", "Q: Which drawer do you keep mugs in? A: the top one",
		"open_drawer, pick_up, query_user", "below 0.75"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, MemoryFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an empty answer created MEMORY.md: %v", err)
	}
}

func TestConsolidateMalformedWritesNothing(t *testing.T) {
	ok := `{"scope":"memory","entry":"fine","confidence":0.9}`
	cases := []struct{ name, answer, why string }{
		{"not json", "I think the user likes tea.", "holds no JSON object"},
		{"empty", "  ", "empty"},
		{"list", `[` + ok + `]`, "JSON list"},
		{"no candidates", `{"lessons":[]}`, `unknown field "lessons"`},
		{"candidates null", `{"candidates":null}`, `no "candidates" list`},
		{"string confidence", `{"candidates":[` + ok + `,{"scope":"memory","entry":"x","confidence":"high"}]}`, "cannot unmarshal string"},
		{"confidence above 1", `{"candidates":[` + ok + `,{"scope":"memory","entry":"x","confidence":1.5}]}`, "candidate 2: confidence 1.5 is outside 0..1"},
		{"confidence below 0", `{"candidates":[{"scope":"memory","entry":"x","confidence":-0.1}]}`, "outside 0..1"},
		{"confidence missing", `{"candidates":[{"scope":"memory","entry":"x"}]}`, `"confidence" is missing`},
		{"unknown tool", `{"candidates":[` + ok + `,{"scope":"tool","tool":"teleport","entry":"x","confidence":0.9}]}`, `unknown tool "teleport"`},
		{"traversal tool", `{"candidates":[{"scope":"tool","tool":"../MEMORY","entry":"x","confidence":0.9}]}`, "may hold only"},
		{"tool without name", `{"candidates":[{"scope":"tool","entry":"x","confidence":0.9}]}`, `needs a "tool"`},
		{"memory with tool", `{"candidates":[{"scope":"memory","tool":"pick_up","entry":"x","confidence":0.9}]}`, "takes no tool"},
		{"unknown scope", `{"candidates":[{"scope":"world","entry":"x","confidence":0.9}]}`, `scope "world"`},
		{"empty entry", `{"candidates":[{"scope":"memory","entry":"  ","confidence":0.9}]}`, "entry is empty"},
		{"long entry", `{"candidates":[{"scope":"memory","entry":"` + strings.Repeat("a", MaxEntryChars+1) + `","confidence":0.9}]}`, "the bound is 500"},
		{"extra field", `{"candidates":[{"scope":"memory","entry":"x","confidence":0.9,"why":"because"}]}`, `unknown field "why"`},
		{"two objects", `{"candidates":[]} and {"candidates":[]}`, "follows the JSON object"},
		{"trailing comma", `{"candidates":[` + ok + `,]}`, "not the expected JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := &fakeModel{answers: []any{c.answer}}
			res, err := Consolidate(t.Context(), m, Config{Dir: dir, Threshold: 0.5}, testInput())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Rejected, c.why) || len(res.Written) != 0 {
				t.Fatalf("Rejected %q, want it to say %q; written %v", res.Rejected, c.why, res.Written)
			}
			if !strings.HasPrefix(res.String(), "memory: nothing written: malformed consolidation answer: ") {
				t.Fatalf("String() %q", res.String())
			}
			if names, _ := os.ReadDir(dir); len(names) != 0 {
				t.Fatalf("files written: %v", names)
			}
		})
	}
}

func TestConsolidateToleratesFenceAndProse(t *testing.T) {
	body := `{"candidates":[{"scope":"memory","entry":"The user prefers tea.","confidence":0.8}]}`
	for name, answer := range map[string]string{
		"fence":       "```json\n" + body + "\n```",
		"bare fence":  "Here it is:\n```\n" + body + "\n```\nDone.",
		"prose":       "Here are the candidates: " + body + " Hope this helps.",
		"whitespace":  "\n\n  " + body + "\n",
		"brace in it": `{"candidates":[{"scope":"memory","entry":"Say {please} first.","confidence":0.8}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			res, err := Consolidate(t.Context(), &fakeModel{answers: []any{answer}}, Config{Dir: dir, Threshold: 0.7}, testInput())
			if err != nil || res.Rejected != "" || len(res.Written) != 1 {
				t.Fatalf("%+v %v", res, err)
			}
		})
	}
}

func TestConsolidateCallFailureWritesNothing(t *testing.T) {
	dir := t.TempDir()
	res, err := Consolidate(t.Context(), &fakeModel{answers: []any{errors.New("503 overloaded")}}, Config{Dir: dir, Threshold: 0.7}, testInput())
	if err != nil {
		t.Fatal(err)
	}
	if res.Rejected != "the consolidation call failed: 503 overloaded" {
		t.Fatalf("Rejected %q", res.Rejected)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("files written: %v", names)
	}
}

func TestConsolidateDuplicatesNotRewritten(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Dir: dir, Threshold: 0.5}
	first := `{"candidates":[{"scope":"memory","entry":"The user prefers tea.","confidence":0.8},
		{"scope":"memory","entry":"the user  prefers TEA","confidence":0.9}]}`
	res, err := Consolidate(t.Context(), &fakeModel{answers: []any{first}}, cfg, testInput())
	if err != nil || len(res.Written) != 1 || len(res.Duplicates) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	path := filepath.Join(dir, MemoryFile)
	before := readFile(t, path)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	in := testInput()
	in.Task = "t2"
	res, err = Consolidate(t.Context(), &fakeModel{answers: []any{`{"candidates":[{"scope":"memory","entry":"The user prefers tea","confidence":0.95}]}`}}, cfg, in)
	if err != nil || len(res.Written) != 0 || len(res.Duplicates) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	st2, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, path) != before || !os.SameFile(st, st2) {
		t.Fatal("a duplicate rewrote MEMORY.md")
	}
	if res.String() != "memory: 0 of 1 candidates written, 1 already present" {
		t.Fatalf("String() %q", res.String())
	}
}

func TestConsolidateRejectsBadConfigAndStamp(t *testing.T) {
	if _, err := Consolidate(t.Context(), &fakeModel{}, Config{Dir: t.TempDir(), Threshold: 1.2}, testInput()); err == nil {
		t.Fatal("threshold 1.2 accepted")
	}
	if _, err := Consolidate(t.Context(), &fakeModel{}, Config{}, testInput()); err == nil {
		t.Fatal("empty dir accepted")
	}
	in := testInput()
	in.Task = "t1] - [1"
	if _, err := Consolidate(t.Context(), &fakeModel{}, Config{Dir: t.TempDir(), Threshold: 0.5}, in); err == nil {
		t.Fatal("a task stamp that breaks the line format accepted")
	}
}
