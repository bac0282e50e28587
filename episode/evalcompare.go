package episode

import (
	"errors"
	"fmt"
	"github.com/thea-harness/thea/internal/termesc"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// Rate is a count out of a number of episodes, with its 95 % Wilson
// interval.
type Rate struct {
	Count    int      `json:"count"`
	Of       int      `json:"of"`
	Rate     float64  `json:"rate"`
	Interval Interval `json:"interval"`
}

// NewRate is k out of n.
func NewRate(k, n int) Rate {
	r := Rate{Count: k, Of: n, Interval: Wilson(k, n)}
	if n > 0 {
		r.Rate = float64(k) / float64(n)
	}
	return r
}

// Difference verdicts: B against A.
const (
	Better = "better"
	Worse  = "worse"
	// Same: no difference at the chosen significance (which is not proof
	// that there is none).
	Same = "no significant difference"
)

// RateDifference compares one rate of two evaluations.
type RateDifference struct {
	// Name is "success" or a failure kind.
	Name string `json:"name"`
	A    Rate   `json:"a"`
	B    Rate   `json:"b"`
	// Diff is B's rate minus A's.
	Diff float64 `json:"diff"`
	// P is the two-sided p-value of Fisher's exact test.
	P       float64 `json:"p"`
	Verdict string  `json:"verdict"`
}

// Comparison is thea eval compare's result: the success rate and each
// failure kind's rate of B against A.
type Comparison struct {
	A     string           `json:"a"`
	B     string           `json:"b"`
	Alpha float64          `json:"alpha"`
	Rates []RateDifference `json:"rates"`
	// Worse: some rate of B is worse than A's at Alpha (a lower success
	// rate, or a failure kind more frequent).
	Worse bool `json:"worse"`
}

// Compare compares evaluation B with evaluation A at significance alpha
// (0 < alpha < 1), rate by rate: the success rate, then each failure kind
// either has. The episodes are independent draws; the seeds need not be
// the same.
func Compare(a, b *EvalResult, alpha float64) (*Comparison, error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("compare: alpha %v: want a significance between 0 and 1, e.g. 0.05", alpha)
	}
	na, nb := len(a.Episodes), len(b.Episodes)
	if na == 0 || nb == 0 {
		return nil, errors.New("compare: an evaluation with no episodes has no rate to compare")
	}
	c := &Comparison{A: a.Spec, B: b.Spec, Alpha: alpha}
	add := func(name string, ka, kb int, higherIsBetter bool) {
		d := RateDifference{Name: name, A: NewRate(ka, na), B: NewRate(kb, nb), Verdict: Same,
			P: FisherExact(ka, na-ka, kb, nb-kb)}
		d.Diff = d.B.Rate - d.A.Rate
		if d.P < alpha && d.Diff != 0 {
			if (d.Diff > 0) == higherIsBetter {
				d.Verdict = Better
			} else {
				d.Verdict = Worse
				c.Worse = true
			}
		}
		c.Rates = append(c.Rates, d)
	}
	add("success", successes(a), successes(b), true)
	kinds := map[string]bool{}
	fa, fb := failures(a), failures(b)
	for k := range fa {
		kinds[k] = true
	}
	for k := range fb {
		kinds[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		add(k, fa[k], fb[k], false)
	}
	return c, nil
}

// successes and failures count from the episodes, not the summary: a
// summary is checked against them when read, and counting is cheap.
func successes(r *EvalResult) int {
	n := 0
	for _, o := range r.Episodes {
		if o.Success {
			n++
		}
	}
	return n
}

func failures(r *EvalResult) map[string]int {
	m := map[string]int{}
	for _, o := range r.Episodes {
		if !o.Success {
			m[o.FailureKind]++
		}
	}
	return m
}

// WriteTable prints the comparison for a person.
func (c *Comparison) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "RATE\tA (%s)\tB (%s)\tB-A\tp (Fisher)\tVERDICT\n", termesc.Escape(c.A), termesc.Escape(c.B))
	for _, d := range c.Rates {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f pts\t%s\t%s\n", termesc.Escape(d.Name), d.A, d.B, 100*d.Diff, formatP(d.P), d.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	verdict := "B is not worse than A"
	if c.Worse {
		verdict = "B is WORSE than A"
	}
	if _, err := fmt.Fprintf(w, "\n%s at alpha %g (two-sided Fisher exact test per rate; 95%% Wilson intervals)\n", verdict, c.Alpha); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}

// String is "k/n p% [low, high]".
func (r Rate) String() string {
	return fmt.Sprintf("%d/%d %.1f%% [%.1f, %.1f]", r.Count, r.Of, 100*r.Rate, 100*r.Interval.Low, 100*r.Interval.High)
}

func formatP(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}
