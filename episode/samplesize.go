package episode

import "math"

// SeedsNeededPaired is how many paired seeds a two-sided exact-enough test
// at alpha needs to see a difference d (0 < d < 1) of the success rate
// with the given power, when a fraction psi of pairs is discordant (one
// run succeeds, the other fails): Connor's formula, R. J. Connor, "Sample
// size for testing differences in proportions for the paired-sample
// design", Biometrics 43 (1987) 207–211,
//
//	n = (z_α/2·√ψ + z_β·√(ψ − d²))² / d².
//
// A difference d needs at least d of the pairs to be discordant, so ψ is
// raised to d when the pairs seen had fewer (or none: two identical runs).
func SeedsNeededPaired(psi, d, alpha, power float64) int {
	psi = min(1, max(psi, d))
	za, zb := zFor(alpha), zPower(power)
	n := sq(za*math.Sqrt(psi)+zb*math.Sqrt(psi-d*d)) / (d * d)
	return int(math.Ceil(n))
}

// SeedsNeededUnpaired is how many seeds each of two independent
// evaluations needs for a two-sided test at alpha to see a rate p moving
// by d with the given power: the normal-approximation formula without
// continuity correction, Fleiss, Levin & Paik, Statistical Methods for
// Rates and Proportions, 3rd ed. (2003), eq. 4.14,
//
//	n = (z_α/2·√(2·p̄·q̄) + z_β·√(p1·q1 + p2·q2))² / d²,  p̄ = (p1 + p2)/2.
//
// p2 is p + d, or p − d where p + d would pass 1.
func SeedsNeededUnpaired(p, d, alpha, power float64) int {
	p1 := p
	p2 := p + d
	if p2 > 1 {
		p2 = p - d
	}
	pbar := (p1 + p2) / 2
	za, zb := zFor(alpha), zPower(power)
	n := sq(za*math.Sqrt(2*pbar*(1-pbar))+zb*math.Sqrt(p1*(1-p1)+p2*(1-p2))) / (d * d)
	return int(math.Ceil(n))
}
