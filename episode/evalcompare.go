package episode

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Comparison verdicts: B against A.
const (
	// Better: the exact test finds a difference at alpha and the whole
	// interval of the difference lies on the better side of 0.
	Better = "better"
	// Worse: the same, on the worse side.
	Worse = "worse"
	// Same: the whole interval lies within ±margin: any difference there
	// is is smaller than the margin the user cares about.
	Same = "same"
	// Underpowered: neither: too few seeds to tell. The rate says how many
	// would see a difference of CompareOptions.Detect.
	Underpowered = "underpowered"
)

// Tests named in a comparison.
const (
	TestMcNemar = "mcnemar_exact"
	TestFisher  = "fisher_exact"
)

// CompareOptions are thea eval compare's settings.
type CompareOptions struct {
	// Alpha is the significance of the test; the intervals are at 1 − Alpha.
	Alpha float64
	// Margin: a difference whose interval lies within ±Margin is Same.
	Margin float64
	// Detect is the difference an Underpowered rate sizes its seeds for,
	// at Alpha and Power.
	Detect float64
	Power  float64
}

// DefaultCompareOptions: 5 % significance, a 5-point margin, seeds sized
// to see 10 points with 80 % power.
func DefaultCompareOptions() CompareOptions {
	return CompareOptions{Alpha: 0.05, Margin: 0.05, Detect: 0.1, Power: 0.8}
}

// Check says which option is out of range, by its flag's name.
func (o CompareOptions) Check() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a significance between 0 and 1, e.g. 0.05", o.Alpha)
	case !(o.Margin >= 0 && o.Margin < 1):
		return fmt.Errorf("margin %v: want a difference of rates from 0 up to (not including) 1, e.g. 0.05", o.Margin)
	case !(o.Detect > 0 && o.Detect < 1):
		return fmt.Errorf("detect %v: want a difference of rates between 0 and 1, e.g. 0.1", o.Detect)
	case !(o.Power > 0 && o.Power < 1):
		return fmt.Errorf("power %v: want a probability between 0 and 1, e.g. 0.8", o.Power)
	}
	return nil
}

// RateDifference compares one rate of two evaluations.
type RateDifference struct {
	// Name is "success" or a failure kind.
	Name string `json:"name"`
	A    Rate   `json:"a"`
	B    Rate   `json:"b"`
	// Diff is B's rate minus A's; Interval its interval at 1 − alpha
	// (Newcombe's, paired or unpaired: see Comparison.Paired).
	Diff     float64  `json:"diff"`
	Interval Interval `json:"interval"`
	// Test is the exact test whose two-sided p-value P is:
	// mcnemar_exact (paired) or fisher_exact.
	Test string  `json:"test"`
	P    float64 `json:"p"`
	// Pairs counts the paired episodes by outcome (paired only).
	Pairs   *Pairs `json:"pairs,omitempty"`
	Verdict string `json:"verdict"`
	// SeedsNeeded, for an underpowered rate: how many seeds would see a
	// difference of Detect at Alpha with Power — paired seeds when paired,
	// else seeds in each evaluation.
	SeedsNeeded int `json:"seeds_needed,omitempty"`
}

// Comparison is thea eval compare's result: the success rate and each
// failure kind's rate of B against A.
type Comparison struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Alpha  float64 `json:"alpha"`
	Margin float64 `json:"margin"`
	Detect float64 `json:"detect"`
	Power  float64 `json:"power"`
	// Paired: both evaluations ran exactly the same seeds (and repeats),
	// so episodes are compared seed by seed.
	Paired bool `json:"paired"`
	// SharedSeeds counts the episodes (seed and repeat) both ran.
	SharedSeeds int `json:"shared_seeds"`
	// AtReset counts the episodes left out because their success held at
	// reset: when paired, the seeds where it held in either run.
	AtReset int `json:"at_reset,omitempty"`
	// Verdict is the success rate's.
	Verdict string           `json:"verdict"`
	Rates   []RateDifference `json:"rates"`
	// Worse: some rate of B is worse than A's (a lower success rate, or a
	// failure kind more frequent).
	Worse bool `json:"worse"`
}

// episodeKey names an episode across evaluations.
type episodeKey struct {
	seed   uint64
	repeat int
}

func keyOf(o Outcome) episodeKey { return episodeKey{o.Seed, o.Repeat} }

// Compare compares evaluation B with evaluation A, rate by rate: the
// success rate, then each failure kind either has. When both ran exactly
// the same episodes (seeds and repeats) they are paired: the exact McNemar
// test and Newcombe's paired interval. Otherwise — different or partly
// overlapping seeds — each evaluation's episodes are taken as independent
// draws: Fisher's exact test and Newcombe's hybrid score interval. (Pairing
// only the shared seeds would drop the others' evidence; treating shared
// seeds as independent is conservative when a seed's difficulty is common
// to both runs.) Episodes whose success held at reset are left out.
func Compare(a, b *EvalResult, opt CompareOptions) (*Comparison, error) {
	if err := opt.Check(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	c := &Comparison{A: a.Spec, B: b.Spec, Alpha: opt.Alpha, Margin: opt.Margin, Detect: opt.Detect, Power: opt.Power}
	inA := map[episodeKey]Outcome{}
	for _, o := range a.Episodes {
		inA[keyOf(o)] = o
	}
	for _, o := range b.Episodes {
		if _, ok := inA[keyOf(o)]; ok {
			c.SharedSeeds++
		}
	}
	c.Paired = c.SharedSeeds == len(a.Episodes) && c.SharedSeeds == len(b.Episodes)
	var ra, rb []Outcome // rated episodes, in pair order when paired
	if c.Paired {
		for _, ob := range b.Episodes {
			oa := inA[keyOf(ob)]
			if oa.SuccessAtReset || ob.SuccessAtReset {
				c.AtReset++
				continue
			}
			ra, rb = append(ra, oa), append(rb, ob)
		}
	} else {
		ra, rb = rated(a.Episodes), rated(b.Episodes)
		c.AtReset = len(a.Episodes) - len(ra) + len(b.Episodes) - len(rb)
	}
	if len(ra) == 0 || len(rb) == 0 {
		return nil, errors.New("compare: an evaluation with no rated episodes (none, or all successful at reset) has no rate to compare")
	}
	success := func(o Outcome) bool { return o.Success }
	c.Rates = append(c.Rates, c.difference("success", ra, rb, success, true, opt))
	kinds := map[string]bool{}
	for _, o := range append(slices.Clone(ra), rb...) {
		if !o.Success {
			kinds[o.FailureKind] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		c.Rates = append(c.Rates, c.difference(k, ra, rb, func(o Outcome) bool { return !o.Success && o.FailureKind == k }, false, opt))
	}
	c.Verdict = c.Rates[0].Verdict
	for _, d := range c.Rates {
		c.Worse = c.Worse || d.Verdict == Worse
	}
	return c, nil
}

// rated leaves out the episodes whose success held at reset.
func rated(eps []Outcome) []Outcome {
	out := make([]Outcome, 0, len(eps))
	for _, o := range eps {
		if !o.SuccessAtReset {
			out = append(out, o)
		}
	}
	return out
}

// difference compares the rate of episodes where hit holds.
func (c *Comparison) difference(name string, a, b []Outcome, hit func(Outcome) bool, higherIsBetter bool, opt CompareOptions) RateDifference {
	ka, kb := count(a, hit), count(b, hit)
	d := RateDifference{Name: name, A: NewRate(ka, len(a)), B: NewRate(kb, len(b))}
	d.Diff = d.B.Rate - d.A.Rate
	if c.Paired {
		var p Pairs
		for i := range a {
			switch ha, hb := hit(a[i]), hit(b[i]); {
			case ha && hb:
				p.Both++
			case ha:
				p.OnlyA++
			case hb:
				p.OnlyB++
			default:
				p.Neither++
			}
		}
		d.Pairs = &p
		d.Test, d.P = TestMcNemar, McNemarExact(p.OnlyA, p.OnlyB)
		d.Interval = NewcombePaired(p, opt.Alpha)
	} else {
		d.Test, d.P = TestFisher, FisherExact(kb, len(b)-kb, ka, len(a)-ka)
		d.Interval = NewcombeUnpaired(kb, len(b), ka, len(a), opt.Alpha)
	}
	d.Verdict = verdict(d, higherIsBetter, opt)
	if d.Verdict == Underpowered {
		if c.Paired {
			psi := float64(d.Pairs.OnlyA+d.Pairs.OnlyB) / float64(d.Pairs.N())
			d.SeedsNeeded = SeedsNeededPaired(psi, opt.Detect, opt.Alpha, opt.Power)
		} else {
			d.SeedsNeeded = SeedsNeededUnpaired(d.A.Rate, opt.Detect, opt.Alpha, opt.Power)
		}
	}
	return d
}

// verdict: better or worse when the test rejects "no difference" and the
// interval lies wholly on one side of 0 (two methods that agree, so a
// verdict never rests on one method's rounding at the edge); same when
// the interval lies within ±margin; else underpowered.
func verdict(d RateDifference, higherIsBetter bool, opt CompareOptions) string {
	significant := d.P < opt.Alpha
	switch {
	case significant && d.Interval.Low > 0:
		if higherIsBetter {
			return Better
		}
		return Worse
	case significant && d.Interval.High < 0:
		if higherIsBetter {
			return Worse
		}
		return Better
	case d.Interval.Low >= -opt.Margin && d.Interval.High <= opt.Margin:
		return Same
	}
	return Underpowered
}

func count(eps []Outcome, hit func(Outcome) bool) int {
	n := 0
	for _, o := range eps {
		if hit(o) {
			n++
		}
	}
	return n
}
