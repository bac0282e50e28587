package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/runlog"
)

// shellSpec copies the household example and starts its simulator through
// a shell, as a user's own spec may: [/bin/sh, -c, "exec THEA sim serve …
// --seed {{seed}}"]. It returns the spec and its shipped episode's events.
func shellSpec(t *testing.T) (spec, events string) {
	t.Helper()
	spec = householdCopy(t)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	const sim = `command: ["thea", "sim", "serve", "--world", "world.yaml", "--seed", "7"]`
	if !bytes.Contains(b, []byte(sim)) {
		t.Fatal("the household sim command changed: update this test")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	shell := `command: ["/bin/sh", "-c", ` + strconv.Quote("exec '"+self+"' sim serve --world world.yaml --seed {{seed}}") + `]`
	if err := os.WriteFile(spec, bytes.Replace(b, []byte(sim), []byte(shell), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec, filepath.Join(filepath.Dir(spec), "episodes", "put-mug-in-drawer", "events.jsonl")
}

// setSeed rewrites the recorded seed on an episode's task_start line.
func setSeed(t *testing.T, events, seed string) {
	t.Helper()
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	var ev map[string]any
	if err := json.Unmarshal(first, &ev); err != nil {
		t.Fatal(err)
	}
	ev["episode"].(map[string]any)["seed"] = seed
	line, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(events, append(append(line, '\n'), rest...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An episode file is data: a recorded seed of "5$(touch PWNED)" with a
// spec whose simulator starts through /bin/sh -c is refused at its file
// and line, the shell never runs it (no PWNED anywhere), and thea test
// exits non-zero. Today's main substituted it into the shell's command and
// printed "1 passed".
func TestEpisodeSeedIsNeverCode(t *testing.T) {
	spec, events := shellSpec(t)
	specDir := filepath.Dir(spec)
	// The shell route works with an honest seed: the refusal below is the
	// seed's, not the spec's.
	setSeed(t, events, "7")
	if code, out, errs := thea(t, "test", "--spec", spec); code != 0 || !strings.Contains(out, "1 passed") {
		t.Fatalf("the shell-started simulator with seed 7: exit %d\n%s\n%s", code, out, errs)
	}
	cwd := t.TempDir()
	t.Chdir(cwd)
	for _, seed := range []string{"5$(touch PWNED)", "5; touch PWNED", "5 6", "-5", "+5", "0x10", "", "18446744073709551616"} {
		if seed == "" {
			continue // an empty seed is "not recorded": replayed at the spec's own
		}
		setSeed(t, events, seed)
		code, out, errs := thea(t, "test", "--spec", spec)
		want := events + ":1: task_start event: episode.seed: seed " + strconv.Quote(seed) + ": want a whole number"
		if code == 0 || !strings.Contains(out, "FAIL put-mug-in-drawer") || !strings.Contains(out, want) {
			t.Errorf("seed %q: exit %d, want non-zero and %q\n%s\n%s", seed, code, want, out, errs)
		}
		code, _, errs = thea(t, "eval", "--spec", spec, "--episodes", "1")
		if code == 0 || !strings.Contains(errs, want) {
			t.Errorf("eval with the episode's instruction, seed %q: exit %d, want %q\n%s", seed, code, want, errs)
		}
	}
	for _, dir := range []string{specDir, cwd, filepath.Dir(events)} {
		if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
			t.Errorf("the recorded seed ran as a command: %s/PWNED exists", dir)
		}
	}
}

// The line named is the task_start's even after blank lines; other values
// out of type (an answer that is not text, a negative turn) are refused at
// theirs.
func TestEpisodeValuesOutOfTypeAtTheirLine(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events.jsonl")
	for _, tc := range []struct{ text, want string }{
		{"\n\n" + `{"kind":"task_start","text":"go","episode":{"seed":"1;id"}}` + "\n", events + `:3: task_start event: episode.seed: seed "1;id"`},
		{`{"kind":"task_start","text":"go"}` + "\n\n" + `{"kind":"question","args":{"answer":5}}` + "\n", events + ":3: question event: args.answer: want text"},
		{`{"kind":"task_start","text":"go"}` + "\n" + `{"kind":"hook","turn":-2}` + "\n", events + ":2: hook event: turn -2 is negative"},
		{`{"kind":"task_start","text":"go"}` + "\n" + `{"kind":"hook","hook":"allow"}` + "\n", events + ":2: hook event: hook: want a hook decision"},
	} {
		if err := os.WriteFile(events, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := episode.Load(t.Context(), dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
	if err := os.WriteFile(events, []byte(`{"kind":"task_start","text":"go","episode":{"seed":"42"}}`+"\n"+`{"kind":"done","turn":1,"done":{"reason":"final_answer"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ep, err := episode.Load(t.Context(), dir); err != nil || ep.Info.Seed != "42" {
		t.Errorf("a well-typed episode: %v", err)
	}
}

// thea run --seed takes a whole number only.
func TestRunSeedIsANumber(t *testing.T) {
	spec, _ := shellSpec(t)
	t.Chdir(t.TempDir())
	code, _, errs := thea(t, "run", "--spec", spec, "--seed", "5$(touch PWNED)", "Put the mug in the top drawer")
	if code != 2 || !strings.Contains(errs, "--seed: seed \"5$(touch PWNED)\": want a whole number") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(spec), "PWNED")); err == nil {
		t.Error("the seed ran as a command")
	}
}

// thea eval merge names a bad shard (the file, the episode and the field)
// and refuses it: negative turns, a success whose reason is max_turns.
func TestEvalMergeRefusesABadShard(t *testing.T) {
	dir := t.TempDir()
	good := &episode.EvalResult{Spec: "s", SpecDigest: "sha256:" + strings.Repeat("ab", 32), Instruction: "go",
		Episodes: []episode.Outcome{{Seed: 1, Success: true, Reason: runlog.DoneFinal, Turns: 3}}}
	good.Summarize()
	write := func(name string, r *episode.EvalResult) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.json", good)
	negative := *good
	negative.Episodes = []episode.Outcome{{Seed: 2, Reason: runlog.DoneMaxTurns, FailureKind: "max_turns", Turns: -235}}
	negative.Summarize()
	maxTurnsWon := *good
	maxTurnsWon.Episodes = []episode.Outcome{{Seed: 3, Success: true, Reason: runlog.DoneMaxTurns, Turns: 60}}
	maxTurnsWon.Summarize()
	for _, tc := range []struct {
		file string
		want string
	}{
		{write("negative.json", &negative), "negative.json: episodes[0] (seed 2): turns -235 is negative"},
		{write("won.json", &maxTurnsWon), `won.json: episodes[0] (seed 3): success with reason "max_turns"`},
	} {
		code, out, errs := thea(t, "eval", "merge", a, tc.file)
		if code != 1 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("merge %s: exit %d, want 1 and %q\n%s%s", tc.file, code, tc.want, out, errs)
		}
	}
	if code, out, errs := thea(t, "eval", "merge", a); code != 0 || !strings.Contains(out, "1/1 succeeded") {
		t.Errorf("a good shard: exit %d\n%s%s", code, out, errs)
	}
}
