package episode

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/thea-harness/thea/internal/termesc"
)

// WriteTable prints the comparison for a person: a line per rate, how the
// episodes were paired, and the verdict in words.
func (c *Comparison) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	test := "p (Fisher)"
	if c.Paired {
		test = "p (McNemar)"
	}
	fmt.Fprintf(tw, "RATE\tA (%s)\tB (%s)\tB-A\t%.6g%% INTERVAL\t%s\tVERDICT\n", termesc.Escape(c.A), termesc.Escape(c.B), 100*(1-c.Alpha), test)
	for _, d := range c.Rates {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f pts\t[%+.1f, %+.1f]\t%s\t%s\n", termesc.Escape(d.Name), d.A, d.B, 100*d.Diff,
			100*d.Interval.Low, 100*d.Interval.High, formatP(d.P), d.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	var b strings.Builder
	b.WriteString("\n")
	if p := c.Rates[0].Pairs; c.Paired {
		fmt.Fprintf(&b, "Paired by seed: %d seeds (both succeeded %d, only A %d, only B %d, neither %d); exact McNemar test, Newcombe's paired interval.\n",
			p.N(), p.Both, p.OnlyA, p.OnlyB, p.Neither)
	} else {
		fmt.Fprintf(&b, "Not paired: the evaluations ran different seeds (%d of %d and %d shared), taken as independent; Fisher's exact test, Newcombe's hybrid score interval.\n",
			c.SharedSeeds, c.Rates[0].A.Of, c.Rates[0].B.Of)
	}
	if c.AtReset > 0 {
		fmt.Fprintf(&b, "Left out: %d episodes whose success held at reset.\n", c.AtReset)
	}
	s := c.Rates[0]
	switch s.Verdict {
	case Better, Worse:
		fmt.Fprintf(&b, "Success: B is %s than A (p %s < alpha %g, the interval excludes 0).\n", s.Verdict, formatP(s.P), c.Alpha)
	case Same:
		fmt.Fprintf(&b, "Success: the same (the interval lies within ±%.1f pts).\n", 100*c.Margin)
	case Underpowered:
		each := "seeds"
		if !c.Paired {
			each = "seeds in each evaluation"
		}
		fmt.Fprintf(&b, "Success: underpowered (neither a difference at alpha %g nor within ±%.1f pts): about %d %s would see a difference of %.1f pts with power %g.\n",
			c.Alpha, 100*c.Margin, s.SeedsNeeded, each, 100*c.Detect, c.Power)
	}
	if c.Worse {
		b.WriteString("B is WORSE than A in some rate.\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}
