package episode

import "math"

// z95 is the standard normal quantile for a two-sided 95 % interval.
const z95 = 1.959963984540054

// Interval is a confidence interval of a rate.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Wilson is the 95 % Wilson score interval of k successes in n trials.
// Unlike the normal approximation it stays inside [0, 1] and is not empty
// at 0/n or n/n, which is where a robot's success rate often sits. With no
// trials nothing is known: [0, 1].
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z95 / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{Low: max(0, centre-half), High: min(1, centre+half)}
}

// FisherExact is the two-sided p-value of Fisher's exact test on the 2×2
// table [[a, b], [c, d]]: the probability, with the margins fixed, of a
// table at most as likely as the one seen. The hypergeometric is computed
// in log space (math.Lgamma), so thousands of episodes do not overflow.
func FisherExact(a, b, c, d int) float64 {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		return math.NaN()
	}
	r1, r2, c1 := a+b, c+d, a+c
	n := r1 + r2
	lo, hi := max(0, c1-r2), min(r1, c1)
	logC := func(n, k int) float64 { return lgamma(n+1) - lgamma(k+1) - lgamma(n-k+1) }
	base := logC(n, c1)
	logP := func(x int) float64 { return logC(r1, x) + logC(r2, c1-x) - base }
	seen := logP(a)
	// Tables as likely as the one seen, up to rounding, count with it.
	const tolerance = 1e-7
	p := 0.0
	for x := lo; x <= hi; x++ {
		if lp := logP(x); lp <= seen+tolerance {
			p += math.Exp(lp)
		}
	}
	return min(1, p)
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}
