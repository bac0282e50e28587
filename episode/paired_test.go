package episode_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/thea-harness/thea/episode"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Newcombe's hybrid score interval (method 10) against published values:
// R. G. Newcombe, Statistics in Medicine 17 (1998) 873–890, Table II,
// method 10 (the examples whose limits the paper prints to four places),
// and the Perondi et al. (2004) trial in Fagerland, Lydersen & Laake,
// Statistical Analysis of Contingency Tables (2017), ch. 4:
// 0.1765 (0.0189 to 0.3404).
func TestNewcombeUnpairedPublished(t *testing.T) {
	for _, tc := range []struct {
		k1, n1, k2, n2 int
		low, high      float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{0, 10, 0, 20, -0.1611, 0.2775},
		{0, 10, 0, 10, -0.2775, 0.2775},
		{10, 10, 0, 20, 0.6791, 1},
		{10, 10, 0, 10, 0.6075, 1},
		{7, 34, 1, 34, 0.0189, 0.3404},
	} {
		got := episode.NewcombeUnpaired(tc.k1, tc.n1, tc.k2, tc.n2, 0.05)
		if !near(got.Low, tc.low, 5e-5) || !near(got.High, tc.high, 5e-5) {
			t.Errorf("%d/%d − %d/%d: [%.5f, %.5f], want [%.4f, %.4f]", tc.k1, tc.n1, tc.k2, tc.n2, got.Low, got.High, tc.low, tc.high)
		}
		// Swapping the two proportions mirrors the interval.
		sw := episode.NewcombeUnpaired(tc.k2, tc.n2, tc.k1, tc.n1, 0.05)
		if !near(sw.Low, -got.High, 1e-12) || !near(sw.High, -got.Low, 1e-12) {
			t.Errorf("%d/%d − %d/%d swapped: %+v, want the mirror of %+v", tc.k1, tc.n1, tc.k2, tc.n2, sw, got)
		}
	}
}

// Newcombe's paired interval (method 10 of Statistics in Medicine 17
// (1998) 2635–2650) against the worked example of Fagerland, Lydersen &
// Laake (2017), ch. 8: complete response before and after consolidation
// therapy (Cavo et al. 2012), table [[59, 6], [16, 80]]: −0.0621
// (−0.1186 to −0.0046).
func TestNewcombePairedPublished(t *testing.T) {
	// Rows: B's outcome; columns: A's. B succeeded in 59 + 6, A in 59 + 16.
	p := episode.Pairs{Both: 59, OnlyB: 6, OnlyA: 16, Neither: 80}
	got := episode.NewcombePaired(p, 0.05)
	if !near(got.Low, -0.1186, 5e-5) || !near(got.High, -0.0046, 5e-5) {
		t.Errorf("Cavo et al.: [%.5f, %.5f], want [-0.1186, -0.0046]", got.Low, got.High)
	}
	sw := episode.NewcombePaired(episode.Pairs{Both: 59, OnlyB: 16, OnlyA: 6, Neither: 80}, 0.05)
	if !near(sw.Low, -got.High, 1e-12) || !near(sw.High, -got.Low, 1e-12) {
		t.Errorf("swapped: %+v, want the mirror of %+v", sw, got)
	}
	// Pairing helps only when the runs agree seed by seed: with every pair
	// concordant except the difference, the paired interval is narrower
	// than the unpaired one of the same rates.
	agree := episode.Pairs{Both: 40, OnlyB: 10, Neither: 50}
	pi, ui := episode.NewcombePaired(agree, 0.05), episode.NewcombeUnpaired(50, 100, 40, 100, 0.05)
	if pi.High-pi.Low >= ui.High-ui.Low || pi.Low <= 0 || ui.Low >= 0 {
		t.Errorf("paired %+v, unpaired %+v: want the paired one narrower and above 0", pi, ui)
	}
	if got := episode.NewcombePaired(episode.Pairs{}, 0.05); got != (episode.Interval{Low: -1, High: 1}) {
		t.Errorf("no pairs: %+v, want [-1, 1]", got)
	}
}

// The exact McNemar p-value against published examples and against the
// binomial sum computed in exact rational arithmetic.
func TestMcNemarExact(t *testing.T) {
	// Bentur et al. (2009), airway hyper-responsiveness before and after
	// stem cell transplantation, 1 and 7 discordant pairs: exact
	// conditional p = 0.070 (Fagerland, Lydersen & Laake, BMC Med Res
	// Methodol 13:91 (2013), Table 2); exactly 2·9/256.
	if got := episode.McNemarExact(1, 7); !near(got, 18.0/256, 1e-12) {
		t.Errorf("Bentur et al.: %.6f, want %.6f", got, 18.0/256)
	}
	// Cavo et al. (2012), 6 and 16: 0.0525 (Fagerland et al. 2017, ch. 8).
	if got := episode.McNemarExact(6, 16); !near(got, 0.0525, 5e-5) {
		t.Errorf("Cavo et al.: %.6f, want 0.0525", got)
	}
	for _, tc := range [][2]int{{0, 0}, {0, 1}, {3, 3}, {0, 15}, {6, 16}, {40, 70}, {480, 560}, {1500, 1400}} {
		b, c := tc[0], tc[1]
		got := episode.McNemarExact(b, c)
		if want := exactMcNemar(b, c); !near(got, want, 1e-9*max(1, want)) || (want > 0 && math.Abs(got-want)/want > 1e-7) {
			t.Errorf("McNemarExact(%d, %d) = %.17g, want %.17g", b, c, got, want)
		}
		if sw := episode.McNemarExact(c, b); sw != got {
			t.Errorf("McNemarExact(%d, %d) = %v, swapped %v: want the same", b, c, got, sw)
		}
	}
	if !math.IsNaN(episode.McNemarExact(-1, 2)) {
		t.Error("a negative count gave a p-value")
	}
}

// exactMcNemar is min(1, 2·Σ_{x ≤ min(b,c)} C(n, x) / 2^n) in rationals.
func exactMcNemar(b, c int) float64 {
	n, k := b+c, min(b, c)
	sum := new(big.Int)
	for x := 0; x <= k; x++ {
		sum.Add(sum, new(big.Int).Binomial(int64(n), int64(x)))
	}
	r := new(big.Rat).SetFrac(new(big.Int).Lsh(sum, 1), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := r.Float64()
	return min(1, f)
}

// Seeds needed, against the formulas worked by hand: Fleiss et al. (2003)
// eq. 4.14 for 50 % against 60 % at alpha 0.05 and power 0.8 is
// (1.95996·√(2·0.55·0.45) + 0.84162·√(0.25 + 0.24))² / 0.01 = 387.3 → 388
// per evaluation; Connor (1987) with 20 % discordant pairs and a
// difference of 10 points is (1.95996·√0.2 + 0.84162·√0.19)² / 0.01 =
// 154.6 → 155 pairs.
func TestSeedsNeeded(t *testing.T) {
	if got := episode.SeedsNeededUnpaired(0.5, 0.1, 0.05, 0.8); got != 388 {
		t.Errorf("unpaired 50%% vs 60%%: %d seeds, want 388", got)
	}
	if got := episode.SeedsNeededPaired(0.2, 0.1, 0.05, 0.8); got != 155 {
		t.Errorf("paired, 20%% discordant: %d seeds, want 155", got)
	}
	// Near 100 % the difference is looked for downwards (p + d > 1): 95 %
	// against 85 % is 85 % against 95 %, and needs fewer seeds than 50 %
	// against 60 %, where rates are most uncertain.
	if a, b := episode.SeedsNeededUnpaired(0.95, 0.1, 0.05, 0.8), episode.SeedsNeededUnpaired(0.85, 0.1, 0.05, 0.8); a != b || a >= 388 {
		t.Errorf("95%%: %d, 85%%: %d: want the same, below 388", a, b)
	}
	// Smaller differences, more power and a stricter alpha each need more.
	base := episode.SeedsNeededPaired(0.3, 0.1, 0.05, 0.8)
	for _, more := range []int{
		episode.SeedsNeededPaired(0.3, 0.05, 0.05, 0.8),
		episode.SeedsNeededPaired(0.3, 0.1, 0.01, 0.8),
		episode.SeedsNeededPaired(0.3, 0.1, 0.05, 0.9),
	} {
		if more <= base {
			t.Errorf("%d seeds, want more than %d", more, base)
		}
	}
	// No discordant pairs seen: ψ is raised to the difference, not 0.
	if got := episode.SeedsNeededPaired(0, 0.1, 0.05, 0.8); got <= 0 {
		t.Errorf("no discordant pairs: %d seeds", got)
	}
}
