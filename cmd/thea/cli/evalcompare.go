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
		Use:   "compare A.json B.json [--alpha 0.05] [--format table|json]",
		Short: "Say whether evaluation B is worse than A, rate by rate, with Fisher's exact test",
		Long: `Compare two evaluations' JSON results (thea eval --out, or a merge): the
success rate and each failure kind's rate of B against A, each with its 95%
Wilson interval, the difference and the two-sided p-value of Fisher's exact
test. A difference with p below --alpha is better or worse; otherwise it is
no significant difference.

Exit 0 when no rate of B is worse than A's at --alpha, 1 when one is (a CI
gate on a spec or model change), 2 on bad input.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			format := a.str(cmd, "format")
			if format != "table" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want table or json", format)}
			}
			alpha := a.v.GetFloat64(a.key(cmd, "alpha"))
			if !(alpha > 0 && alpha < 1) {
				return usageError{fmt.Errorf("--alpha %v: want a significance between 0 and 1, e.g. 0.05", alpha)}
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
			c, err := episode.Compare(rs[0], rs[1], alpha)
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
	cmd.Flags().Float64("alpha", 0.05, "significance: a difference with a p-value below it counts")
	cmd.Flags().String("format", "table", "table or json")
	return cmd
}
