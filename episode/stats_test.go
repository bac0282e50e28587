package episode_test

import (
	"math"
	"testing"

	"github.com/thea-harness/thea/episode"
)

// Wilson bounds against values computed from the formula by hand (and the
// textbook 81/263 example).
func TestWilsonInterval(t *testing.T) {
	for _, tc := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775327998628892},
		{10, 10, 0.7224672001371107, 1},
		{45, 100, 0.3561453797951198, 0.5475539700255787},
		{1, 2, 0.09453120573423074, 0.9054687942657693},
		{81, 263, 0.2552885198782742, 0.36620957698280004},
		{0, 0, 0, 1},
	} {
		got := episode.Wilson(tc.k, tc.n)
		if math.Abs(got.Low-tc.low) > 1e-12 || math.Abs(got.High-tc.high) > 1e-12 {
			t.Errorf("Wilson(%d, %d) = [%.15f, %.15f], want [%.15f, %.15f]", tc.k, tc.n, got.Low, got.High, tc.low, tc.high)
		}
	}
}

// Two-sided Fisher p-values against exact references (computed with
// rational arithmetic: the sum of the hypergeometric probabilities of the
// tables at most as likely as the one seen), large counts included.
func TestFisherExact(t *testing.T) {
	for _, tc := range []struct {
		a, b, c, d int
		p          float64
	}{
		{3, 1, 1, 3, 0.4857142857142857}, // the lady tasting tea
		{1, 9, 11, 3, 0.0027594561852200836},
		{45, 55, 60, 40, 0.04716548538301928},
		{0, 10, 10, 0, 1.082508822446903e-05},
		{5, 5, 5, 5, 1},
		{90, 10, 70, 30, 0.000650410707603421},
		{480, 520, 530, 470, 0.0283936963706784},
		{0, 100, 0, 100, 1},
		{2000, 3000, 2100, 2900, 0.04412145224842156},
	} {
		got := episode.FisherExact(tc.a, tc.b, tc.c, tc.d)
		if math.Abs(got-tc.p) > 1e-9*max(1, tc.p) || math.Abs(got-tc.p)/tc.p > 1e-6 {
			t.Errorf("FisherExact(%d, %d, %d, %d) = %.17g, want %.17g", tc.a, tc.b, tc.c, tc.d, got, tc.p)
		}
		// The test is symmetric: swapping the rows changes nothing.
		if sw := episode.FisherExact(tc.c, tc.d, tc.a, tc.b); math.Abs(sw-got) > 1e-12 {
			t.Errorf("rows swapped: %.17g, want %.17g", sw, got)
		}
	}
}
