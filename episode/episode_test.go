package episode_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
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
	for _, bad := range []string{"", "a..b", "5..1", "1..", "..3", "0x1..0x5", "+1..2", "1..2;id"} {
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
		"sim":  {Kind: "mcp", Config: toolsets.MCPConfig{Command: []string{"thea", "sim", "serve", "--seed", "7"}}},
		"arm":  {Kind: "mcp", Config: toolsets.MCPConfig{Command: []string{"arm", "--rng={{seed}}", "--seed", "3"}}},
		"eq":   {Kind: "mcp", Config: toolsets.MCPConfig{Command: []string{"x", "--seed=4"}}},
		"none": {Kind: "builtin"},
	}}
	s, err := episode.WithSeed(spec, 42)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		"sim": {"thea", "sim", "serve", "--seed", "42"},
		"arm": {"arm", "--rng=42", "--seed", "3"}, // the placeholder wins
		"eq":  {"x", "--seed=42"},
	} {
		if got := s.Toolsets[name].CommandLine(); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if spec.Toolsets["sim"].CommandLine()[4] != "7" {
		t.Error("WithSeed changed the spec it was given")
	}
	if _, err := episode.WithSeed(&schema.Spec{Toolsets: map[string]schema.Toolset{"c": {Kind: "builtin"}}}, 1); err == nil ||
		!strings.Contains(err.Error(), "{{seed}}") {
		t.Errorf("a spec without a seeded command: %v", err)
	}
}

// digest is a well-formed spec digest for results made up in tests.
const digest = "sha256:91b956b9d67c153fbfeb309ed136ec5c8c8a3c17a6de5be87a4a02f5d53e97a3"

// shard is an eval result of outcomes, its summary computed as thea eval
// computes it.
func shard(t *testing.T, outcomes ...episode.Outcome) *episode.EvalResult {
	t.Helper()
	r := &episode.EvalResult{SpecDigest: digest, Instruction: "i", Episodes: outcomes}
	r.Summarize()
	if err := r.Validate(); err != nil {
		t.Fatalf("a valid shard refused: %v", err)
	}
	return r
}

// A seed given as text is decimal digits only; an episode name is a plain
// file name.
func TestParseSeedAndCheckName(t *testing.T) {
	for s, want := range map[string]uint64{"0": 0, "7": 7, "007": 7, "18446744073709551615": 1<<64 - 1} {
		if n, err := episode.ParseSeed(s); err != nil || n != want {
			t.Errorf("ParseSeed(%q) = %d, %v", s, n, err)
		}
	}
	for _, bad := range []string{"", " 7", "7 ", "-1", "+1", "0x10", "1e3", "5$(touch PWNED)", "5;id", "18446744073709551616", "７"} {
		if _, err := episode.ParseSeed(bad); err == nil || !strings.Contains(err.Error(), "whole number") {
			t.Errorf("ParseSeed(%q): %v", bad, err)
		}
	}
	spec := &schema.Spec{Dir: "/robots/r1"}
	if d, err := episode.RecordDir(spec, "put-mug"); err != nil || d != "/robots/r1/episodes/put-mug" {
		t.Errorf("RecordDir: %q %v", d, err)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "/abs", "../x", `a\b`, "a\x00b"} {
		if _, err := episode.RecordDir(spec, bad); err == nil || !strings.Contains(err.Error(), "episode name") {
			t.Errorf("RecordDir(%q): %v", bad, err)
		}
	}
}

func TestMergeRefusesOverlapAndStrangers(t *testing.T) {
	ok := episode.Outcome{Seed: 1, Success: true, Reason: runlog.DoneFinal}
	a := shard(t, ok)
	b := shard(t, episode.Outcome{Seed: 1, Reason: runlog.DoneError, FailureKind: "error"})
	if _, err := episode.Merge(a, b); err == nil || !strings.Contains(err.Error(), "seed 1") {
		t.Errorf("overlap: %v", err)
	}
	c := shard(t)
	c.SpecDigest = "sha256:" + strings.Repeat("0", 64)
	if _, err := episode.Merge(a, c); err == nil {
		t.Error("results of another spec merged")
	}
	d := shard(t, episode.Outcome{Seed: 2, Reason: runlog.DoneMaxTurns, FailureKind: "max_turns", Turns: 4})
	m, err := episode.Merge(d, a)
	if err != nil {
		t.Fatal(err)
	}
	if m.Episodes[0].Seed != 1 || m.Summary.Successes != 1 || m.Summary.SuccessRate != 0.5 || m.Summary.FailuresByKind["max_turns"] != 1 {
		t.Errorf("merged %+v", m)
	}
}

// A shard with a value out of range, a success that contradicts its
// reason or a summary that disagrees with its episodes is refused, naming
// the episode and the field.
func TestMergeRefusesBadShards(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(r *episode.EvalResult)
		want  string
	}{
		{"negative turns", func(r *episode.EvalResult) { r.Episodes[1].Turns = -117 }, "episodes[1] (seed 2): turns -117 is negative"},
		{"huge turns", func(r *episode.EvalResult) { r.Episodes[1].Turns = 1 << 50 }, "episodes[1] (seed 2): turns 1125899906842624 is larger than"},
		{"negative tokens", func(r *episode.EvalResult) { r.Episodes[0].Usage.OutputTokens = -5 }, "episodes[0] (seed 1): usage.output_tokens -5 is negative"},
		{"negative verdicts", func(r *episode.EvalResult) { r.Episodes[0].Verdicts = map[string]int{"success": -1} }, "verdicts.success -1 is negative"},
		{"unknown verdict", func(r *episode.EvalResult) { r.Episodes[0].Verdicts = map[string]int{"maybe": 1} }, `"maybe" is not a verdict status`},
		{"success at max_turns", func(r *episode.EvalResult) { r.Episodes[1].Success, r.Episodes[1].FailureKind = true, "" },
			`episodes[1] (seed 2): success with reason "max_turns"`},
		{"success with a failure kind", func(r *episode.EvalResult) { r.Episodes[0].FailureKind = "error" }, `success with failure_kind "error"`},
		{"failure kind against reason", func(r *episode.EvalResult) { r.Episodes[1].FailureKind = "error" }, `reason "max_turns" has failure_kind "error"`},
		{"final answer failed without a verdict", func(r *episode.EvalResult) { r.Episodes[0].Success = false }, "want verdict_failure:TOOL"},
		{"unknown reason", func(r *episode.EvalResult) { r.Episodes[1].Reason, r.Episodes[1].FailureKind = "bored", "bored" }, `reason "bored": want one of`},
		{"seed twice", func(r *episode.EvalResult) { r.Episodes[1].Seed = 1 }, "both have seed 1"},
		{"summary successes", func(r *episode.EvalResult) { r.Summary.Successes = 2 }, "summary.successes is 2, its episodes give 1"},
		{"summary mean turns", func(r *episode.EvalResult) { r.Summary.MeanTurns = -117.5 }, "summary.mean_turns is -117.5"},
		{"summary failures", func(r *episode.EvalResult) { r.Summary.FailuresByKind = nil }, "summary.failures_by_kind"},
		{"digest", func(r *episode.EvalResult) { r.SpecDigest = "d" }, `spec_digest "d"`},
		{"instruction", func(r *episode.EvalResult) { r.Instruction = " " }, "instruction is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := shard(t,
				episode.Outcome{Seed: 1, Success: true, Reason: runlog.DoneFinal, Turns: 10, Usage: model.Usage{InputTokens: 100, OutputTokens: 5}},
				episode.Outcome{Seed: 2, Reason: runlog.DoneMaxTurns, FailureKind: "max_turns", Turns: 60})
			tc.spoil(r)
			_, err := episode.Merge(shard(t, episode.Outcome{Seed: 9, Success: true, Reason: runlog.DoneFinal}), r)
			if err == nil || !strings.Contains(err.Error(), "result 2: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// The JSON a shard is read from is strict: unknown or missing fields,
// trailing data and values of the wrong type are refused, naming the file.
func TestParseEvalResultIsStrict(t *testing.T) {
	good := shard(t, episode.Outcome{Seed: 3, Success: true, Reason: runlog.DoneFinal, Turns: 2,
		EstimatedUsage: model.Usage{InputTokens: 900, OutputTokens: 40}})
	b, err := json.Marshal(good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := episode.ParseEvalResult("s.json", b); err != nil {
		t.Fatalf("a shard thea eval wrote: %v", err)
	}
	text := string(b)
	for name, bad := range map[string]string{
		"unknown field":              strings.Replace(text, `"spec":`, `"extra":1,"spec":`, 1),
		"missing seed":               strings.Replace(text, `"seed":3,`, ``, 1),
		"missing turns":              strings.Replace(text, `"turns":2,`, ``, 1),
		"negative seed":              strings.Replace(text, `"seed":3`, `"seed":-3`, 1),
		"fractional":                 strings.Replace(text, `"turns":2`, `"turns":2.5`, 1),
		"string turns":               strings.Replace(text, `"turns":2`, `"turns":"2"`, 1),
		"trailing data":              text + `{"spec":"again"}`,
		"missing digest":             strings.Replace(text, `"spec_digest":"`+digest+`",`, ``, 1),
		"not an object":              `[]`,
		"negative estimate":          strings.Replace(text, `"estimated_usage":{"input_tokens":900`, `"estimated_usage":{"input_tokens":-900`, 1),
		"summary estimate disagrees": strings.Replace(text, `"estimated_tokens":{"input_tokens":900`, `"estimated_tokens":{"input_tokens":901`, 1),
	} {
		if bad == text {
			t.Fatalf("%s: the test's replacement did not apply to %s", name, text)
		}
		if _, err := episode.ParseEvalResult("s.json", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "s.json: ") {
			t.Errorf("%s: %v", name, err)
		}
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
	c.Observe(runlog.Event{Kind: runlog.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 1}})
	c.Observe(runlog.Event{Kind: runlog.EventToolResult, Turn: 1, Tool: "move", Result: &runlog.Envelope{Success: true, Value: map[string]any{"moved": 0.5}}})
	d, err := c.Result()
	if err != nil || d == nil {
		t.Fatalf("no divergence: %v", err)
	}
	if d.Turn != 1 || d.Kind != "tool_result" || !strings.Contains(d.Diff, `-     "moved": 1`) || !strings.Contains(d.Diff, `+     "moved": 0.5`) {
		t.Errorf("divergence %s", d)
	}
	// The diff shows what the harness wrote: "<nil>" and "&&", not their
	// HTML escapes.
	esc := episode.NewComparator(steps)
	esc.Observe(runlog.Event{Kind: runlog.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 1}})
	esc.Observe(runlog.Event{Kind: runlog.EventToolResult, Turn: 1, Tool: "move", Result: &runlog.Envelope{Reason: "rule failed: invalid operation: <nil> < float64 && more"}})
	if d, _ := esc.Result(); d == nil || !strings.Contains(d.Diff, `"reason": "rule failed: invalid operation: <nil> < float64 && more"`) || strings.Contains(d.Diff, `\u003c`) {
		t.Errorf("divergence with escapes: %v", d)
	}
	short := episode.NewComparator(steps)
	short.Observe(runlog.Event{Kind: runlog.EventToolCall, Turn: 1, Tool: "move", Args: map[string]any{"d": 1}})
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
