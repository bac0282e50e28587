package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/runlog"
)

// writeEval writes an evaluation of n seeds, k of them successes and the
// rest grasps that slipped, as thea eval --out would.
func writeEval(t *testing.T, name string, n, k int) string {
	t.Helper()
	r := &episode.EvalResult{Spec: "household-sim", SpecDigest: "sha256:" + strings.Repeat("ab", 32), Instruction: "Put the mug in the top drawer"}
	for i := range n {
		o := episode.Outcome{Seed: uint64(i + 1), Turns: 10, Reason: runlog.DoneFinal, Success: i < k}
		if !o.Success {
			o.FailureKind = "verdict_failure:pick_up"
		}
		r.Episodes = append(r.Episodes, o)
	}
	r.Summarize()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// thea eval compare pairs two runs of the same seeds by seed (exact
// McNemar test, Newcombe's paired interval) and exits 1 only when B is
// worse: a CI gate.
func TestEvalCompareExitCode(t *testing.T) {
	a := writeEval(t, "a.json", 100, 45)
	for _, tc := range []struct {
		name  string
		b     string
		args  []string
		code  int
		wants []string
	}{
		{"equal", writeEval(t, "same.json", 100, 45), nil, 0, []string{"45/100 45.0% [35.6, 54.8]", "+0.0 pts", "1.0000", "p (McNemar)", " same", "Paired by seed: 100 seeds", "Success: the same (the interval lies within ±5.0 pts)"}},
		{"better", writeEval(t, "better.json", 100, 60), nil, 0, []string{"60/100 60.0%", "+15.0 pts", "6.1e-05", "better", "Success: B is better than A"}},
		{"worse", writeEval(t, "worse.json", 100, 30), nil, 1, []string{"30/100 30.0%", "-15.0 pts", "worse", "B is WORSE than A in some rate."}},
		{"worse, not at alpha 0.00001", writeEval(t, "worse2.json", 100, 30), []string{"--alpha", "0.00001"}, 0, []string{"99.999% INTERVAL", "underpowered", "seeds would see a difference of 10.0 pts"}},
		{"a margin of 20 points", writeEval(t, "worse3.json", 100, 42), []string{"--margin", "0.2"}, 0, []string{"-3.0 pts", "Success: the same (the interval lies within ±20.0 pts)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := thea(t, append([]string{"eval", "compare", a, tc.b}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tc.code, out, errs)
			}
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	code, out, _ := thea(t, "eval", "compare", "--format", "json", a, writeEval(t, "w.json", 100, 30))
	var c episode.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != 1 || !c.Worse || !c.Paired || c.Verdict != episode.Worse ||
		len(c.Rates) != 2 || c.Rates[1].Name != "verdict_failure:pick_up" || c.Rates[1].Verdict != episode.Worse || c.Rates[0].Pairs == nil || c.Rates[0].Pairs.OnlyA != 15 {
		t.Errorf("json: exit %d, %v\n%s", code, err, out)
	}
	for _, args := range [][]string{
		{a}, {a, a, "--alpha", "0"}, {a, a, "--alpha", "1.5"}, {a, a, "--margin", "-0.1"}, {a, a, "--detect", "0"}, {a, a, "--power", "1"},
		{a, filepath.Join(t.TempDir(), "missing.json")},
	} {
		if code, _, errs := thea(t, append([]string{"eval", "compare"}, args...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, want 2 with a message: %s", args, code, errs)
		}
	}
}

// A result file with a key given twice (encoding/json keeps the last, and
// the file passes every other check) is refused by eval compare and eval
// merge, naming the file and the key.
func TestEvalResultDuplicateKeyRefused(t *testing.T) {
	good := writeEval(t, "a.json", 4, 2)
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// The third episode's turn count given twice.
	text := string(b)
	i := strings.Index(text, `"seed": 3,`)
	if i < 0 {
		t.Fatalf("no seed 3 in:\n%s", text)
	}
	dup := filepath.Join(t.TempDir(), "dup.json")
	if err := os.WriteFile(dup, []byte(text[:i]+`"turns": 99, `+text[i:]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"compare", good, dup}, {"merge", dup}} {
		code, out, errs := thea(t, append([]string{"eval"}, args...)...)
		if code == 0 || !strings.Contains(errs, dup+`: not an eval result: key "turns" given twice in /episodes/2`) {
			t.Errorf("eval %s: exit %d\n%s\n%s", args[0], code, out, errs)
		}
	}
}
