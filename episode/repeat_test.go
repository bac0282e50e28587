package episode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
)

// repeats is an evaluation whose seed i ran len(wins[i]) repeats with
// those outcomes.
func repeats(wins ...[]bool) *episode.EvalResult {
	var eps []episode.Outcome
	for i, ws := range wins {
		for r, w := range ws {
			o := outcome(uint64(i+1), w)
			o.Repeat = r
			eps = append(eps, o)
		}
	}
	return result(eps)
}

// pass^k is the τ-bench estimator: per seed C(c, k)/C(n, k), averaged.
// Three seeds of four repeats with 2, 4 and 0 successes: pass^1 = (1/2 +
// 1 + 0)/3, pass^2 = (C(2,2)/C(4,2) + 1 + 0)/3 = (1/6 + 1)/3 = 7/18,
// pass^3 = pass^4 = 1/3 (only the seed that never failed).
func TestPassK(t *testing.T) {
	r := repeats([]bool{true, false, true, false}, []bool{true, true, true, true}, []bool{false, false, false, false})
	want := []float64{0.5, 7.0 / 18, 1.0 / 3, 1.0 / 3}
	if len(r.Summary.PassK) != len(want) {
		t.Fatalf("pass^k %+v, want k = 1..4", r.Summary.PassK)
	}
	for i, p := range r.Summary.PassK {
		if p.K != i+1 || !near(p.Value, want[i], 1e-15) || p.Seeds != 3 {
			t.Errorf("pass^%d = %+v, want %.6f over 3 seeds", i+1, p, want[i])
		}
	}
	// pass^1 is the success rate when every seed ran as often.
	if r.Summary.PassK[0].Value != r.Summary.SuccessRate {
		t.Errorf("pass^1 %v, success rate %v", r.Summary.PassK[0].Value, r.Summary.SuccessRate)
	}
	// pass^k never rises with k.
	r = repeats([]bool{true, true, false}, []bool{true, false, true}, []bool{true, true, true})
	for i := 1; i < len(r.Summary.PassK); i++ {
		if r.Summary.PassK[i].Value > r.Summary.PassK[i-1].Value {
			t.Errorf("pass^%d > pass^%d: %+v", i+1, i, r.Summary.PassK)
		}
	}
	// Without repeats there is no pass^k to give.
	if r := repeats([]bool{true}, []bool{false}); r.Summary.PassK != nil {
		t.Errorf("no repeats: pass^k %+v", r.Summary.PassK)
	}
	// The table shows it.
	var out strings.Builder
	if err := repeats([]bool{true, false}, []bool{true, true}).WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "pass^k: k=1 75.0%, k=2 50.0% (all of k repeats of a seed succeed; over 2 seeds)") || !strings.Contains(out.String(), "\n1#1 ") {
		t.Errorf("table:\n%s", out.String())
	}
}

// Repeat 0 runs on the seed itself; the others on seeds that differ from
// it, from each other and from the neighbouring seeds' repeats.
func TestRepeatSeed(t *testing.T) {
	seen := map[uint64]string{}
	for s := uint64(1); s <= 50; s++ {
		if episode.RepeatSeed(s, 0) != s {
			t.Fatalf("repeat 0 of seed %d runs on %d", s, episode.RepeatSeed(s, 0))
		}
		for r := 1; r <= 20; r++ {
			b := episode.RepeatSeed(s, r)
			if prev, dup := seen[b]; dup || b <= 50 {
				t.Fatalf("seed %d repeat %d runs on %d, as %s does", s, r, b, prev)
			}
			seen[b] = fmt.Sprintf("seed %d repeat %d", s, r)
			if episode.RepeatSeed(s, r) != b {
				t.Fatal("not reproducible")
			}
		}
	}
}

// An episode whose success held at reset is left out of the rate, its
// failure kinds and pass^k, and counted apart; a file that flags one
// without naming the check is refused; so is a summary whose pass^k
// disagrees with its episodes; shards of a blind and a seeing evaluation
// do not merge.
func TestSuccessAtResetAndRepeatsInResults(t *testing.T) {
	r := repeats([]bool{true, true}, []bool{false, true}, []bool{true, false})
	r.SuccessAtReset = "after.held == 'mug'"
	r.Episodes[0].SuccessAtReset = true
	r.Episodes[1].SuccessAtReset = true
	r.Summarize()
	s := r.Summary
	if s.Episodes != 6 || s.AtReset != 2 || s.Successes != 2 || s.SuccessRate != 0.5 || s.FailuresByKind[slip] != 2 || s.PassK[0].Seeds != 2 || s.PassK[1].Value != 0 {
		t.Errorf("summary %+v", s)
	}
	if err := r.Validate(); err != nil {
		t.Errorf("valid result refused: %v", err)
	}
	bad := *r
	bad.SuccessAtReset = ""
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "names no success_at_reset check") {
		t.Errorf("flag without a check: %v", err)
	}
	bad = *r
	bad.Summary.PassK = append([]episode.PassK(nil), r.Summary.PassK...)
	bad.Summary.PassK[1].Value = 0.25
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "summary.pass_k") {
		t.Errorf("pass^k disagreeing: %v", err)
	}
	bad = *r
	bad.Summary.AtReset = 0
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "summary.at_reset") {
		t.Errorf("at_reset disagreeing: %v", err)
	}
	// The same seed twice is fine as two repeats, refused as one.
	dup := repeats([]bool{true, false})
	dup.Episodes[1].Repeat = 0
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "both have seed 1 repeat 0") {
		t.Errorf("a repeat twice: %v", err)
	}
	seeing, blind := runOf(1, 4, 2), runOf(5, 4, 2)
	blind.Blind = true
	if _, err := episode.Merge(seeing, blind); err == nil || !strings.Contains(err.Error(), "blind") {
		t.Errorf("blind and seeing shards merged: %v", err)
	}
	blind2 := runOf(9, 4, 2)
	blind2.Blind = true
	m, err := episode.Merge(blind, blind2)
	if err != nil || !m.Blind || m.Summary.Episodes != 8 {
		t.Errorf("blind shards: %v %+v", err, m)
	}
}
