package episode

import "math"

// The statistics of thea eval compare: the difference of two success rates
// with its interval and an exact test, paired by seed when both
// evaluations ran the same seeds. The formulas are written out from their
// sources (cited at each) rather than taken from a library: each is a few
// lines, and the tests check them against the sources' worked examples.

// zFor is the standard normal quantile for a two-sided interval at
// significance alpha (1.96 at 0.05).
func zFor(alpha float64) float64 { return math.Sqrt2 * math.Erfinv(1-alpha) }

// zPower is the one-sided normal quantile of a power (0.84 at 0.8).
func zPower(power float64) float64 { return math.Sqrt2 * math.Erfinv(2*power-1) }

// wilsonZ is Wilson's score interval of k successes in n at quantile z
// (Wilson 1927; Newcombe 1998a, method 3). With no trials nothing is known.
func wilsonZ(k, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z*z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{Low: max(0, centre-half), High: min(1, centre+half)}
}

// NewcombeUnpaired is the interval of p1 − p2 for k1 of n1 and k2 of n2
// independent trials at significance alpha: Newcombe's hybrid score
// interval, method 10 of R. G. Newcombe, "Interval estimation for the
// difference between independent proportions: comparison of eleven
// methods", Statistics in Medicine 17 (1998) 873–890. It squares and adds
// the distances from each rate to its Wilson limits, so it stays inside
// [−1, 1] and is not empty at 0/n or n/n.
func NewcombeUnpaired(k1, n1, k2, n2 int, alpha float64) Interval {
	z := zFor(alpha)
	p1, p2 := rate(k1, n1), rate(k2, n2)
	w1, w2 := wilsonZ(k1, n1, z), wilsonZ(k2, n2, z)
	d := p1 - p2
	return Interval{
		Low:  max(-1, d-math.Hypot(p1-w1.Low, w2.High-p2)),
		High: min(1, d+math.Hypot(w1.High-p1, p2-w2.Low)),
	}
}

// Pairs counts the episodes of two evaluations paired by seed: Both
// succeeded, only A (A succeeded, B failed), only B, Neither.
type Pairs struct {
	Both    int `json:"both"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
	Neither int `json:"neither"`
}

// N is the number of pairs.
func (p Pairs) N() int { return p.Both + p.OnlyA + p.OnlyB + p.Neither }

// NewcombePaired is the interval of B's rate minus A's over paired
// episodes at significance alpha: Newcombe's square-and-add interval for
// paired data, method 10 of R. G. Newcombe, "Improved confidence intervals
// for the difference between binomial proportions based on paired data",
// Statistics in Medicine 17 (1998) 2635–2650: the Wilson limits of each
// rate combined with the correlation φ of the pairs (corrected towards 0
// as the paper does, so it never overstates the pairing's gain).
func NewcombePaired(p Pairs, alpha float64) Interval {
	n := p.N()
	if n == 0 {
		return Interval{-1, 1}
	}
	z := zFor(alpha)
	kb, ka := p.Both+p.OnlyB, p.Both+p.OnlyA
	pb, pa := rate(kb, n), rate(ka, n)
	wb, wa := wilsonZ(kb, n, z), wilsonZ(ka, n, z)
	// φ of the 2×2 table (B's outcome by A's); 0 when a margin is empty.
	phi := 0.0
	if ka > 0 && ka < n && kb > 0 && kb < n {
		prod := float64(ka) * float64(n-ka) * float64(kb) * float64(n-kb)
		det := float64(p.Both)*float64(p.Neither) - float64(p.OnlyA)*float64(p.OnlyB)
		switch half := float64(n) / 2; {
		case det > half:
			phi = (det - half) / math.Sqrt(prod)
		case det < 0:
			phi = det / math.Sqrt(prod)
		}
	}
	d := pb - pa
	lo := math.Sqrt(max(0, sq(pb-wb.Low)-2*phi*(pb-wb.Low)*(wa.High-pa)+sq(wa.High-pa)))
	hi := math.Sqrt(max(0, sq(wb.High-pb)-2*phi*(wb.High-pb)*(pa-wa.Low)+sq(pa-wa.Low)))
	return Interval{Low: max(-1, d-lo), High: min(1, d+hi)}
}

// McNemarExact is the two-sided p-value of the exact (conditional)
// McNemar test: given the b + c discordant pairs, the chance under no
// difference (each discordant pair is A's or B's with probability ½) of a
// split at least as uneven as b : c, doubled (capped at 1). McNemar,
// Psychometrika 12 (1947) 153–157; the exact form as in Fagerland,
// Lydersen & Laake, BMC Medical Research Methodology 13:91 (2013).
func McNemarExact(b, c int) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1
	}
	// P(X ≤ k) for X ~ Binomial(n, ½), summed in log space so that
	// thousands of pairs neither overflow nor underflow early.
	logHalf := float64(n) * math.Log(0.5)
	p := 0.0
	for x := 0; x <= k; x++ {
		p += math.Exp(lgamma(n+1) - lgamma(x+1) - lgamma(n-x+1) + logHalf)
	}
	return min(1, 2*p)
}

func rate(k, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func sq(x float64) float64 { return x * x }
