package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

func householdCopy(t testing.TB) string {
	t.Helper()
	return testutil.ExampleCopy(t, filepath.Join("..", "..", "..", "examples", "household", "spec.cue"))
}

// junitCounts decodes a JUnit report in its usual shape and returns its
// suite's tests and failures, and each failure's message.
func junitCounts(t *testing.T, path string) (tests, failures int, messages []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suite   []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suite) != 1 {
		t.Fatalf("JUnit report not in its usual shape (%v):\n%s", err, b)
	}
	s := doc.Suite[0]
	for _, c := range s.Cases {
		if c.Failure != nil {
			messages = append(messages, c.Failure.Message)
		}
	}
	return s.Tests, s.Failures, messages
}

// The household demo's shipped episode replays offline without divergence.
func TestHouseholdEpisodesPass(t *testing.T) {
	spec := householdCopy(t)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errs := thea(t, "test", "--spec", spec, "--junit", junit)
	if code != 0 {
		t.Fatalf("thea test exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "PASS put-mug-in-drawer (10 turns") || !strings.Contains(out, "1 passed, 0 failed") {
		t.Errorf("output:\n%s", out)
	}
	if strings.Contains(out, "spec changed") {
		t.Errorf("the shipped episode was recorded from another spec than the shipped one:\n%s", out)
	}
	if tests, failures, _ := junitCounts(t, junit); tests != 1 || failures != 0 {
		t.Errorf("JUnit: %d tests, %d failures", tests, failures)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(spec), ".thea")); err == nil {
		t.Error("a replay wrote run logs or memory into the spec's folder")
	}
}

// Tightening the clamp rule makes the replay diverge at the clamped call
// (turn 3), with a diff of the clamped argument, and thea test exit 1.
func TestChangedClampFailsAtItsTurn(t *testing.T) {
	spec := householdCopy(t)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	const rule = `clearance.toward(args.direction) - limits.safety_margin_m)"`
	if !bytes.Contains(b, []byte(rule)) {
		t.Fatalf("the household clamp rule changed: update this test")
	}
	b = bytes.Replace(b, []byte(rule), []byte(`clearance.toward(args.direction) - limits.safety_margin_m - 0.2)"`), 1)
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errs := thea(t, "test", "--spec", spec, "--junit", junit, "put-mug-in-drawer")
	if code != 1 {
		t.Fatalf("thea test exit %d, want 1\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"FAIL put-mug-in-drawer, spec changed since recording: diverged at turn 3, hook move_base",
		`-       "distance_m": 0.5`,
		`+       "distance_m": 0.3`,
		`-     "reason": "distance_m clamped from 1 to 0.5"`,
		"0 passed, 1 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if tests, failures, msgs := junitCounts(t, junit); tests != 1 || failures != 1 || len(msgs) != 1 || !strings.Contains(msgs[0], "turn 3") {
		t.Errorf("JUnit: %d tests, %d failures %v", tests, failures, msgs)
	}
}

// thea run --record writes an episode holding every purpose's model call,
// the spec digest and the seed; the trace never prints the model calls;
// and thea test replays it.
func TestRecordThenReplay(t *testing.T) {
	spec := householdCopy(t)
	code, out, errs := thea(t, "run", "--spec", spec, "--record", "again", "Put the mug in the top drawer")
	if code != 0 {
		t.Fatalf("thea run --record exit %d\n%s\n%s", code, out, errs)
	}
	dir := filepath.Join(filepath.Dir(spec), "episodes", "again")
	if !strings.Contains(errs, "episode recorded in "+dir) {
		t.Errorf("stderr: %s", errs)
	}
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	purposes := map[string]int{}
	var info *runlog.EpisodeInfo
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev runlog.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case runlog.EventModelCall:
			purposes[string(ev.ModelCall.Purpose)]++
		case runlog.EventTaskStart:
			info = ev.Episode
		}
	}
	if purposes["decide"] != 10 || purposes["evaluate"] != 1 || purposes["consolidate"] != 1 {
		t.Errorf("model calls by purpose: %v", purposes)
	}
	if info == nil || info.Seed != "7" || !strings.HasPrefix(info.SpecDigest, "sha256:") || info.Toolsets["sim"][0] != "thea" {
		t.Errorf("episode info %+v", info)
	}
	// The evaluator's raw answer and the consolidation proposal are for the
	// integrator's run log, not the terminal.
	for _, leak := range []string{"model_call", `"candidates"`, "drawer front flush"} {
		if strings.Contains(out, leak) {
			t.Errorf("trace prints %q:\n%s", leak, out)
		}
	}
	code, out, errs = thea(t, "test", "--spec", spec, "again")
	if code != 0 || !strings.Contains(out, "PASS again") {
		t.Fatalf("replaying the new episode: exit %d\n%s\n%s", code, out, errs)
	}
}

// Four shards of an evaluation, merged, equal the unsharded evaluation.
// The household world is flaky as shipped (seeded chances of failure), so
// the seeds differ in outcome.
func TestEvalShardsMergeToTheWhole(t *testing.T) {
	spec := householdCopy(t)
	tmp := t.TempDir()
	whole := filepath.Join(tmp, "whole.json")
	code, out, errs := thea(t, "eval", "--spec", spec, "--episodes", "8", "--parallel", "2", "--out", whole)
	if code != 0 {
		t.Fatalf("thea eval exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "household-sim: ") || !strings.Contains(out, "FAIL") {
		t.Errorf("table:\n%s", out)
	}
	var shards []string
	for i := range 4 {
		p := filepath.Join(tmp, fmt.Sprintf("shard%d.json", i))
		if code, out, errs := thea(t, "eval", "--spec", spec, "--episodes", "8", "--shard", fmt.Sprintf("%d/4", i), "--format", "json", "--out", p); code != 0 {
			t.Fatalf("shard %d: exit %d\n%s\n%s", i, code, out, errs)
		}
		shards = append(shards, p)
	}
	code, merged, errs := thea(t, append([]string{"eval", "merge", "--format", "json"}, shards...)...)
	if code != 0 {
		t.Fatalf("merge exit %d\n%s", code, errs)
	}
	want, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if merged != string(want) {
		t.Errorf("merged shards differ from the whole:\n%s\nwant\n%s", merged, want)
	}
	var r episode.EvalResult
	if err := json.Unmarshal(want, &r); err != nil {
		t.Fatal(err)
	}
	if r.Summary.Episodes != 8 || r.Summary.Successes == 0 || r.Summary.Successes == 8 {
		t.Errorf("want a mixed outcome over 8 flaky seeds: %+v", r.Summary)
	}
	// The scripted model reports no usage: the table shows the harness's
	// estimate, marked as one, and the JSON keeps it apart from usage.
	if !strings.Contains(out, "(~: the harness's estimate") || !regexp.MustCompile(`\n1 +\S+ +10 +~[1-9][0-9]{4} +~[1-9][0-9]* `).MatchString(out) {
		t.Errorf("the table shows no estimated tokens:\n%s", out)
	}
	est := 0
	for _, o := range r.Episodes {
		if o.Usage.InputTokens != 0 || o.EstimatedUsage.InputTokens < 10*2000 || o.EstimatedUsage.OutputTokens == 0 {
			t.Errorf("seed %d: usage %+v, estimated %+v", o.Seed, o.Usage, o.EstimatedUsage)
		}
		est += o.EstimatedUsage.InputTokens
	}
	if r.Summary.EstimatedTokens.InputTokens != est {
		t.Errorf("summary estimated tokens %+v, episodes give %d", r.Summary.EstimatedTokens, est)
	}
	if code, _, errs := thea(t, "eval", "merge", shards[0], shards[0]); code != 1 || !strings.Contains(errs, "overlapping shards") {
		t.Errorf("merging a shard twice: exit %d %s", code, errs)
	}
}

// A changed world is a divergence too: the mug put 5 cm further away shows
// in the first observation the model is sent after driving to the table.
func TestChangedWorldDivergesAtTheObservation(t *testing.T) {
	spec := householdCopy(t)
	world := filepath.Join(filepath.Dir(spec), "world.yaml")
	b, err := os.ReadFile(world)
	if err != nil {
		t.Fatal(err)
	}
	const mug = "position: [11.15, 2.5]"
	if !bytes.Contains(b, []byte(mug)) {
		t.Fatal("the household mug moved: update this test")
	}
	if err := os.WriteFile(world, bytes.Replace(b, []byte(mug), []byte("position: [11.2, 2.5]"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := thea(t, "test", "--spec", spec)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
	}
	// The spec files are unchanged: only the world moved.
	if !strings.Contains(out, "FAIL put-mug-in-drawer: diverged at turn 2, observation observe") ||
		!strings.Contains(out, `-         "distance_m": 1.1,`) || !strings.Contains(out, `+         "distance_m": 1.15,`) {
		t.Errorf("output:\n%s", out)
	}
}

// BenchmarkEvalHousehold20 times `thea eval --episodes 20` on the household
// task with the script provider (each seed a fresh session and simulator
// subprocess), serially.
func BenchmarkEvalHousehold20(b *testing.B) {
	spec := householdCopy(b)
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := cli.Execute(b.Context(), strings.NewReader(""), &out, &errb, []string{"eval", "--spec", spec, "--episodes", "20", "--format", "json"}); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// An episode whose final decision is missing makes the replay ask the model
// once more than was recorded: it diverges at the end, saying why.
func TestReplayPastTheRecordingSaysWhy(t *testing.T) {
	spec := householdCopy(t)
	events := filepath.Join(filepath.Dir(spec), "episodes", "put-mug-in-drawer", "events.jsonl")
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	last := -1
	for i, l := range lines {
		if strings.Contains(l, `"kind":"model_call"`) && strings.Contains(l, `"purpose":"decide"`) {
			last = i
		}
	}
	if last < 0 {
		t.Fatal("no decide call recorded")
	}
	if err := os.WriteFile(events, []byte(strings.Join(append(lines[:last:last], lines[last+1:]...), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := thea(t, "test", "--spec", spec)
	if code != 1 || !strings.Contains(out, "diverged at turn 10, done") || !strings.Contains(out, "no recorded response left for a decide call (9 replayed)") ||
		!strings.Contains(out, `-     "reason": "final_answer"`) || !strings.Contains(out, `+     "reason": "error"`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// A spec named by a relative path from another directory: the run log,
// the recording and the replay resolve against the right directories
// (a --run-log path is the caller's, the episode's path is absolute for
// the replay provider), and nothing lands in a doubled path.
func TestRecordAndTestFromARelativeSpecPath(t *testing.T) {
	spec := testutil.ExampleCopy(t, "../../../examples/household/spec.cue")
	parent := filepath.Dir(filepath.Dir(spec))
	t.Chdir(parent)
	rel := filepath.Join(filepath.Base(filepath.Dir(spec)), "spec.cue")
	if code, _, errs := run(t, "run", "--spec", rel, "--record", "relative", "--run-log", "runs", "Put the mug in the top drawer"); code != 0 {
		t.Fatalf("run --record: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(spec), "episodes", "relative", "events.jsonl")); err != nil {
		t.Fatalf("the episode is not next to the spec: %v", err)
	}
	if _, err := os.Stat(filepath.Join(parent, "runs")); err != nil {
		t.Fatalf("--run-log runs is not relative to the working directory: %v", err)
	}
	if code, out, errs := run(t, "test", "--spec", rel, "relative"); code != 0 || !strings.Contains(out, "PASS relative") {
		t.Fatalf("test: exit %d\n%s\n%s", code, out, errs)
	}
}
