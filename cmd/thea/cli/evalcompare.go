package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/termesc"
)

// newEvalCompareCmd: `thea eval compare A.json B.json [--alpha 0.05]
// [--format table|json]`.
func (a *App) newEvalCompareCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "compare A.json B.json [--alpha 0.05] [--margin 0.05] [--detect 0.1] [--power 0.8] [--format table|json]",
		Short: "Say whether evaluation B is better, worse, the same as A, or that there are too few seeds to tell",
		Long: `Compare two evaluations' JSON results (thea eval --out, or a merge): the
success rate and each failure kind's rate of B against A, each with its 95%
Wilson interval, the difference B-A with its interval at 1-alpha, and the
two-sided p-value of an exact test.

When both ran exactly the same seeds, episodes are paired by seed: the exact
McNemar test and Newcombe's paired interval. Otherwise they are taken as
independent: Fisher's exact test and Newcombe's hybrid score interval.
Episodes whose success held at reset are left out.

Each rate's verdict: better or worse when the test's p is below --alpha and
the interval lies on one side of 0; same when the interval lies within
+-margin; otherwise underpowered, with the number of seeds that would see a
difference of --detect at --alpha with --power.

Exit 0 when no rate of B is worse than A's, 1 when one is (a CI gate on a
spec or model change), 2 on bad input.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			format := a.str(cmd, "format")
			if format != "table" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want table or json", format)}
			}
			opt := episode.CompareOptions{
				Alpha: a.v.GetFloat64(a.key(cmd, "alpha")), Margin: a.v.GetFloat64(a.key(cmd, "margin")),
				Detect: a.v.GetFloat64(a.key(cmd, "detect")), Power: a.v.GetFloat64(a.key(cmd, "power")),
			}
			if err := opt.Check(); err != nil {
				return usageError{fmt.Errorf("--%w", err)}
			}
			var rs [2]*episode.EvalResult
			for i, p := range args {
				b, err := readfile.Read(cmd.Context(), p, readfile.EvalResult)
				if err != nil {
					return usageError{fmt.Errorf("compare: %w", err)}
				}
				if rs[i], err = episode.ParseEvalResult(p, b); err != nil {
					return usageError{fmt.Errorf("compare: %s", termesc.Escape(err.Error()))}
				}
			}
			c, err := episode.Compare(rs[0], rs[1], opt)
			if err != nil {
				return usageError{err}
			}
			c.A, c.B = args[0], args[1]
			if format == "json" {
				b, err := json.MarshalIndent(c, "", "  ")
				if err != nil {
					return fmt.Errorf("compare: %w", err)
				}
				_, err = a.Stdout.Write(append(b, '\n'))
				if err != nil {
					return fmt.Errorf("compare: %w", err)
				}
			} else if err := c.WriteTable(a.Stdout); err != nil {
				return err
			}
			if c.Worse {
				return exitError{code: 1}
			}
			return nil
		},
	}
	def := episode.DefaultCompareOptions()
	cmd.Flags().Float64("alpha", def.Alpha, "significance: a difference with a p-value below it counts; intervals are at 1-alpha")
	cmd.Flags().Float64("margin", def.Margin, "a difference whose interval lies within +-margin is the same")
	cmd.Flags().Float64("detect", def.Detect, "the difference an underpowered verdict sizes its seeds for")
	cmd.Flags().Float64("power", def.Power, "the power an underpowered verdict sizes its seeds for")
	cmd.Flags().String("format", "table", "table or json")
	return cmd
}
