package episode_test

import (
	"bytes"
	"encoding/xml"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/replay"
	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/schema"
)

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct{ want, got, diff string }{
		{"a\nb\nc", "a\nb\nc", ""},
		{"a\nb\nc", "a\nx\nc", "  a\n- b\n+ x\n  c\n"},
		{"1\n2\n3\n4\n5\n6\n7", "1\n2\n3\n4\n5\n6\nX", "  …\n  5\n  6\n- 7\n+ X\n"},
		{"a", "", "- a\n+ \n"},
	} {
		if d := episode.LineDiff(tc.want, tc.got); d != tc.diff {
			t.Errorf("LineDiff(%q, %q) =\n%s\nwant\n%s", tc.want, tc.got, d, tc.diff)
		}
	}
}

// Shards partition the seed list: every seed in exactly one shard, in the
// order of the unsharded list.
func TestShardsPartitionSeeds(t *testing.T) {
	r, err := episode.ParseSeedRange("10..29")
	if err != nil {
		t.Fatal(err)
	}
	all, err := episode.Seeds(r, 0, episode.Shard{})
	if err != nil || len(all) != 20 || all[0] != 10 || all[19] != 29 {
		t.Fatalf("all seeds %v %v", all, err)
	}
	var union []uint64
	for i := range 3 {
		part, err := episode.Seeds(r, 0, episode.Shard{Index: i, Count: 3})
		if err != nil {
			t.Fatal(err)
		}
		union = append(union, part...)
	}
	slices.Sort(union)
	if !slices.Equal(union, all) {
		t.Errorf("shards' union %v, want %v", union, all)
	}
	first, _ := episode.Seeds(r, 5, episode.Shard{})
	if !slices.Equal(first, []uint64{10, 11, 12, 13, 14}) {
		t.Errorf("--episodes 5 of 10..29: %v", first)
	}
	if _, err := episode.Seeds(r, 21, episode.Shard{}); err == nil {
		t.Error("21 episodes from a range of 20 accepted")
	}
	for _, bad := range []string{"", "a..b", "5..1", "1..", "..3"} {
		if _, err := episode.ParseSeedRange(bad); err == nil {
			t.Errorf("seed range %q accepted", bad)
		}
	}
	for _, bad := range []string{"", "1", "4/4", "-1/4", "0/0", "x/2"} {
		if _, err := episode.ParseShard(bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
}

func TestWithSeed(t *testing.T) {
	spec := &schema.Spec{Toolsets: map[string]schema.Toolset{
		"sim":  {Kind: "mcp", Command: []string{"thea", "sim", "serve", "--seed", "7"}},
		"arm":  {Kind: "mcp", Command: []string{"arm", "--rng={{seed}}", "--seed", "3"}},
		"eq":   {Kind: "mcp", Command: []string{"x", "--seed=4"}},
		"none": {Kind: "builtin"},
	}}
	s, err := episode.WithSeed(spec, "42")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		"sim": {"thea", "sim", "serve", "--seed", "42"},
		"arm": {"arm", "--rng=42", "--seed", "3"}, // the placeholder wins
		"eq":  {"x", "--seed=42"},
	} {
		if got := s.Toolsets[name].Command; !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if spec.Toolsets["sim"].Command[4] != "7" {
		t.Error("WithSeed changed the spec it was given")
	}
	if _, err := episode.WithSeed(&schema.Spec{Toolsets: map[string]schema.Toolset{"c": {Kind: "builtin"}}}, "1"); err == nil ||
		!strings.Contains(err.Error(), "{{seed}}") {
		t.Errorf("a spec without a seeded command: %v", err)
	}
}

func TestMergeRefusesOverlapAndStrangers(t *testing.T) {
	a := &episode.EvalResult{SpecDigest: "d", Instruction: "i", Episodes: []episode.Outcome{{Seed: 1, Success: true}}}
	b := &episode.EvalResult{SpecDigest: "d", Instruction: "i", Episodes: []episode.Outcome{{Seed: 1}}}
	if _, err := episode.Merge(a, b); err == nil || !strings.Contains(err.Error(), "seed 1") {
		t.Errorf("overlap: %v", err)
	}
	c := &episode.EvalResult{SpecDigest: "other", Instruction: "i"}
	if _, err := episode.Merge(a, c); err == nil {
		t.Error("results of another spec merged")
	}
	d := &episode.EvalResult{SpecDigest: "d", Instruction: "i", Episodes: []episode.Outcome{{Seed: 2, FailureKind: "max_turns", Turns: 4}}}
	m, err := episode.Merge(d, a)
	if err != nil {
		t.Fatal(err)
	}
	if m.Episodes[0].Seed != 1 || m.Summary.Successes != 1 || m.Summary.SuccessRate != 0.5 || m.Summary.FailuresByKind["max_turns"] != 1 {
		t.Errorf("merged %+v", m)
	}
}

// A replay that differs from the recording diverges at the first differing
// step; one that stops early diverges at the first step it never reached.
func TestComparator(t *testing.T) {
	rec := []byte(`{"kind":"task_start","turn":0,"text":"go"}
{"kind":"model_call","turn":1,"model_call":{"purpose":"decide","tool_calls":[{"name":"move","arguments":"{\"d\":1}"}]}}
{"kind":"tool_call","turn":1,"tool":"move","args":{"d":1}}
{"kind":"tool_result","turn":1,"tool":"move","result":{"success":true,"moved":1}}
{"kind":"done","turn":1,"done":{"reason":"final_answer","text":"ok"}}
`)
	ep, err := replay.Parse("rec.jsonl", rec)
	if err != nil {
		t.Fatal(err)
	}
	if ep.Instruction != "go" || len(ep.Calls) != 1 || ep.Count("decide") != 1 {
		t.Fatalf("parsed %+v", ep)
	}
	steps, err := episode.Steps(ep)
	if err != nil || len(steps) != 3 {
		t.Fatalf("steps %v %v", steps, err)
	}
	c := episode.NewComparator(steps)
	c.Observe(engine.Event{Kind: engine.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 1}})
	c.Observe(engine.Event{Kind: engine.EventToolResult, Turn: 1, Tool: "move", Result: &engine.Envelope{Success: true, Value: map[string]any{"moved": 0.5}}})
	d, err := c.Result()
	if err != nil || d == nil {
		t.Fatalf("no divergence: %v", err)
	}
	if d.Turn != 1 || d.Kind != "tool_result" || !strings.Contains(d.Diff, `-     "moved": 1`) || !strings.Contains(d.Diff, `+     "moved": 0.5`) {
		t.Errorf("divergence %s", d)
	}
	short := episode.NewComparator(steps)
	short.Observe(engine.Event{Kind: engine.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 1}})
	short.Finish()
	if d, _ := short.Result(); d == nil || d.Kind != "tool_result" || !strings.Contains(d.Note, "ended before") {
		t.Errorf("early end: %v", d)
	}
	for _, bad := range []string{"", `{"kind":"tool_call"}`, `{"kind":"task_start"}` + "\n" + `{"kind":"model_call"}`, "{"} {
		if _, err := replay.Parse("bad.jsonl", []byte(bad)); err == nil || !strings.Contains(err.Error(), "bad.jsonl") {
			t.Errorf("episode %q: %v", bad, err)
		}
	}
}

// The JUnit report has the usual shape: testsuites > testsuite > testcase,
// a failure element on a failed case, counts that agree.
func TestJUnitShape(t *testing.T) {
	results := []episode.Result{
		{Name: "good", Duration: time.Second},
		{Name: "bad", Divergence: &episode.Divergence{Turn: 3, Kind: "hook", Tool: "move_base", Diff: "- a\n+ b\n"}},
		{Name: "broken", Error: "episode: no such file"},
	}
	var b bytes.Buffer
	if err := episode.WriteJUnit(&b, "household-sim", results, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	checkJUnit(t, b.Bytes(), 3, 1, 1)
	if !strings.Contains(b.String(), "diverged at turn 3, hook move_base") {
		t.Errorf("failure message missing:\n%s", b.String())
	}
}

// checkJUnit decodes a JUnit report into the usual shape and checks counts.
func checkJUnit(t *testing.T, b []byte, tests, failures, errs int) {
	t.Helper()
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Errors   int    `xml:"errors,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Time      string `xml:"time,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites", len(doc.Suites))
	}
	s := doc.Suites[0]
	nf, ne := 0, 0
	for _, c := range s.Cases {
		if c.Name == "" || c.Classname == "" || c.Time == "" {
			t.Errorf("testcase without name, classname or time: %+v", c)
		}
		if c.Failure != nil {
			nf++
			if c.Failure.Message == "" || c.Failure.Body == "" {
				t.Errorf("failure without message or body: %+v", c.Failure)
			}
		}
		if c.Error != nil {
			ne++
		}
	}
	if s.Tests != tests || len(s.Cases) != tests || s.Failures != failures || nf != failures || s.Errors != errs || ne != errs {
		t.Errorf("suite counts tests=%d cases=%d failures=%d/%d errors=%d/%d, want %d %d %d", s.Tests, len(s.Cases), s.Failures, nf, s.Errors, ne, tests, failures, errs)
	}
}
