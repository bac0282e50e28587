package episode

import (
	"fmt"
	"io"
	"strings"

	"github.com/thea-harness/thea/internal/termesc"
)

// Repeats (thea eval --repeats K) run each seed K times, so that pass^k —
// the chance that k attempts at the same task all succeed — can be
// estimated beside pass@1. A seed is the task; its repeats differ only in
// the back-end seed they run on.

// RepeatSeed is the back-end seed repeat r of seed runs on: the seed
// itself for repeat 0, so an evaluation without repeats (and the first
// repeat of one with them) runs exactly what it always ran; for r ≥ 1 a
// splitmix64 mix of the seed and r, reproducible on every machine and far
// from the evaluation's neighbouring seeds (seed 2's repeats are not seed
// 3's). thea test replays a saved repeat at this seed, which its run log
// records.
func RepeatSeed(seed uint64, r int) uint64 {
	if r == 0 {
		return seed
	}
	return splitmix64(seed ^ splitmix64(uint64(r)))
}

// splitmix64 is Steele, Lea & Flood's mixing function (OOPSLA 2014), as
// java.util.SplittableRandom uses it.
func splitmix64(x uint64) uint64 {
	z := x + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// episodeRuns lists the episodes of an evaluation: each seed's repeats,
// seed by seed.
func episodeRuns(seeds []uint64, repeats int) []episodeKey {
	repeats = max(1, repeats)
	runs := make([]episodeKey, 0, len(seeds)*repeats)
	for _, s := range seeds {
		for r := range repeats {
			runs = append(runs, episodeKey{s, r})
		}
	}
	return runs
}

// PassK is pass^k: the estimated chance that k attempts at a task (a
// seed) all succeed.
type PassK struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
	// Seeds is how many seeds it averages: those with at least k rated
	// repeats.
	Seeds int `json:"seeds"`
}

// passK estimates pass^k for k = 1 … the largest number of rated repeats
// of a seed, when some seed has two or more: per seed with n rated
// repeats of which c succeeded, C(c, k) / C(n, k) — the chance that k of
// its repeats drawn without replacement all succeeded, an unbiased
// estimate of p^k — averaged over the seeds with n ≥ k. This is the
// estimator of Yao et al., "τ-bench" (2024), §4; k = 1 is the mean of the
// per-seed success rates (pass@1). Episodes whose success held at reset
// are left out.
func passK(eps []Outcome) []PassK {
	type tally struct{ n, c int }
	var order []uint64
	by := map[uint64]*tally{}
	most := 0
	for _, o := range eps {
		if o.SuccessAtReset {
			continue
		}
		t := by[o.Seed]
		if t == nil {
			t = &tally{}
			by[o.Seed] = t
			order = append(order, o.Seed)
		}
		t.n++
		if o.Success {
			t.c++
		}
		most = max(most, t.n)
	}
	if most < 2 {
		return nil
	}
	out := make([]PassK, 0, most)
	for k := 1; k <= most; k++ {
		sum, seeds := 0.0, 0
		for _, s := range order {
			t := by[s]
			if t.n < k {
				continue
			}
			seeds++
			sum += allOf(t.c, t.n, k)
		}
		out = append(out, PassK{K: k, Value: sum / float64(seeds), Seeds: seeds})
	}
	return out
}

// allOf is C(c, k) / C(n, k) for 0 ≤ c ≤ n and 1 ≤ k ≤ n, as the product
// of (c − j) / (n − j) for j < k: no factorials, so no overflow.
func allOf(c, n, k int) float64 {
	if c < k {
		return 0
	}
	p := 1.0
	for j := range k {
		p *= float64(c-j) / float64(n-j)
	}
	return p
}

// writeExtras prints what an evaluation with repeats, a reset check or
// blind sessions adds to its summary.
func (r *EvalResult) writeExtras(w io.Writer) error {
	s := r.Summary
	var b strings.Builder
	if r.Blind {
		b.WriteString("  blind: the model was given no observation (thea eval --blind)\n")
	}
	if r.SuccessAtReset != "" {
		fmt.Fprintf(&b, "  success at reset (%s): %d of %d episodes, left out of the rates\n", termesc.Escape(r.SuccessAtReset), s.AtReset, s.Episodes)
	}
	if len(s.PassK) > 0 {
		b.WriteString("  pass^k:")
		for i, p := range s.PassK {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s k=%d %.1f%%", sep, p.K, 100*p.Value)
		}
		fmt.Fprintf(&b, " (all of k repeats of a seed succeed; over %d seeds)\n", s.PassK[0].Seeds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
