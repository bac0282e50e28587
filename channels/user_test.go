package channels

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
)

func TestTerminalAsk(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(strings.NewReader("2\n  the green one \n1\n"), &out)
	got, err := term.Ask(t.Context(), engine.Question{Text: "Which mug?", Choices: []string{"red", "blue"}, Refs: []string{"obj:1"}})
	if err != nil || got != "blue" {
		t.Fatalf("Ask = %q, %v", got, err)
	}
	got, err = term.Ask(t.Context(), engine.Question{Text: "Colour?", Choices: []string{"red"}})
	if err != nil || got != "the green one" {
		t.Fatalf("free answer = %q, %v", got, err)
	}
	// Candidates checked against the Scene Graph are shown by their Brief
	// line; a terminal-hostile line is escaped.
	got, err = term.Ask(t.Context(), engine.Question{Text: "This one?", Choices: []string{"yes"}, Refs: []string{"obj:mug#2"},
		Candidates: []engine.Candidate{{Ref: "obj:mug#2", Line: "obj:mug#2: on place:cabinet\x1b[2J [observe/head t3]"}}})
	if err != nil || got != "yes" {
		t.Fatalf("Ask with candidates = %q, %v", got, err)
	}
	for _, want := range []string{"? Which mug?", "  1) red", "  2) blue", "(about: obj:1)", "  about:\n    obj:mug#2: on place:cabinet\\x1b[2J [observe/head t3]\n"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output %q lacks %q", out.String(), want)
		}
	}
	if _, err := term.Ask(t.Context(), engine.Question{Text: "More?"}); err == nil {
		t.Fatal("answer after end of input")
	}
	if err := term.Notify(t.Context(), "done"); err != nil || !strings.Contains(out.String(), "i done\n") {
		t.Fatalf("notify: %v, %q", err, out.String())
	}
}

func TestTerminalAskCancelled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close(); _ = r.Close() })
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := NewTerminal(r, &strings.Builder{}).Ask(ctx, engine.Question{Text: "?"}); err == nil {
		t.Fatal("Ask returned an answer after cancel")
	}
}

func TestScriptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.yaml")
	yaml := "answers:\n  - answer: first\n  - match: drawer\n    answer: top\n  - answer: \"1\"\n"
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(q engine.Question) string {
		t.Helper()
		a, err := s.Ask(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := ask(engine.Question{Text: "Which drawer?"}); a != "top" {
		t.Fatalf("match answer = %q", a)
	}
	if a := ask(engine.Question{Text: "Ready?"}); a != "first" {
		t.Fatalf("ordered answer = %q", a)
	}
	if a := ask(engine.Question{Text: "Pick", Choices: []string{"mug", "cup"}}); a != "mug" {
		t.Fatalf("numbered answer = %q", a)
	}
	if _, err := s.Ask(t.Context(), engine.Question{Text: "Again?"}); err == nil || !strings.Contains(err.Error(), "Again?") {
		t.Fatalf("unanswerable: %v", err)
	}
	if len(s.Questions()) != 4 {
		t.Fatalf("questions = %v", s.Questions())
	}
}

func TestScriptFileErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(path, []byte("answer: [oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadScript(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Fatal("missing file loaded")
	}
}

// A line longer than a scanner's buffer is still one answer, and the answers
// after it are still read.
func TestTerminalLongLine(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	term := NewTerminal(strings.NewReader(long+"\nnext\nlast"), &strings.Builder{})
	for _, want := range []string{long, "next", "last"} {
		got, err := term.Ask(t.Context(), engine.Question{Text: "?"})
		if err != nil || got != want {
			t.Fatalf("Ask = %.20q (%d bytes), %v; want %.20q", got, len(got), err, want)
		}
	}
	if _, err := term.Ask(t.Context(), engine.Question{Text: "?"}); err == nil {
		t.Fatal("answer after end of input")
	}
}

func TestScriptFileEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(path, []byte("# nothing yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadScript(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("err = %v, want one saying the file is empty", err)
	}
}

// Every problem of an answers file is reported at its line and column, in
// words: never a Go type.
func TestScriptFileProblems(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"answers:\n  - answer: [a, b]\n", "2:13: answers[0].answer: want text, got a list"},
		{"answers:\n  - anwser: x\n", `2:5: answers[0]: unknown field "anwser" (did you mean "answer"?)`},
		{"answers:\n  - match: x\n", "2:5: answers[0]: missing answer"},
		{"answers:\n  answer: top\n", "2:3: answers: want a list of {answer: ..., match?: ...}, got a mapping"},
		{"- answer: x\n", "1:1: want a mapping with answers: [{answer: ...}], got a list"},
		{"answer: x\n", `1:1: unknown field "answer" (did you mean "answers"?)`},
		{"answers: [oops\n", "1:1: not valid YAML: did not find expected ',' or ']'"},
		{"# nothing\n", "1:1: the file is empty"},
	} {
		_, probs := ParseScript([]byte(tc.src))
		if len(probs) == 0 || !strings.HasPrefix(probs[0].Error(), tc.want) {
			t.Errorf("%q: problems %v, want %q first", tc.src, probs, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(path, []byte("answers:\n  - answer: [a, b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadScript(path)
	if err == nil || !strings.Contains(err.Error(), path+":2:13: answers[0].answer: want text") || strings.Contains(err.Error(), "unmarshal") {
		t.Fatalf("LoadScript: %v", err)
	}
	answers, probs := ParseScript([]byte("answers:\n  - &a {answer: top, match: drawer}\n  - *a\n  - answer: 1\n"))
	if len(probs) > 0 || len(answers) != 3 || answers[1].Match != "drawer" || answers[2].Answer != "1" {
		t.Fatalf("aliases and numbers: %+v, %v", answers, probs)
	}
}
