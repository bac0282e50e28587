package episode

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
)

// tokens shows a reported count, the estimate marked "~" where none was
// reported, or both.
func tokens(reported, estimated int) string {
	switch {
	case estimated == 0:
		return strconv.Itoa(reported)
	case reported == 0:
		return "~" + strconv.Itoa(estimated)
	}
	return strconv.Itoa(reported) + " + ~" + strconv.Itoa(estimated)
}

// WriteTable prints the result for a person: one line per episode, then
// the summary and the failures by kind.
func (r *EvalResult) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEED\tRESULT\tTURNS\tTOKENS IN\tTOKENS OUT\tFAILURE")
	for _, o := range r.Episodes {
		res := "ok"
		if !o.Success {
			res = "FAIL"
		}
		if o.SuccessAtReset {
			res += " (success at reset: not rated)"
		}
		seed := strconv.FormatUint(o.Seed, 10)
		if o.Repeat > 0 {
			seed += "#" + strconv.Itoa(o.Repeat)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", seed, res, o.Turns,
			tokens(o.Usage.InputTokens, o.EstimatedUsage.InputTokens), tokens(o.Usage.OutputTokens, o.EstimatedUsage.OutputTokens),
			termesc.Escape(o.FailureKind))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("eval table: %w", err)
	}
	s := r.Summary
	_, err := fmt.Fprintf(w, "\n%s: %d/%d succeeded (%.1f%%, 95%% interval %.1f–%.1f%%), %.1f turns on average, %s input + %s output tokens\n",
		termesc.Escape(r.Spec), s.Successes, s.Episodes-s.AtReset, 100*s.SuccessRate, 100*s.SuccessInterval.Low, 100*s.SuccessInterval.High, s.MeanTurns,
		tokens(s.Tokens.InputTokens, s.EstimatedTokens.InputTokens), tokens(s.Tokens.OutputTokens, s.EstimatedTokens.OutputTokens))
	if err != nil {
		return fmt.Errorf("eval table: %w", err)
	}
	if s.EstimatedTokens != (model.Usage{}) {
		if _, err := fmt.Fprintln(w, "  (~: the harness's estimate, four characters a token, where the model reported no usage)"); err != nil {
			return fmt.Errorf("eval table: %w", err)
		}
	}
	if err := r.writeExtras(w); err != nil {
		return fmt.Errorf("eval table: %w", err)
	}
	for _, k := range slices.Sorted(maps.Keys(s.FailuresByKind)) {
		if _, err := fmt.Fprintf(w, "  %-28s %s\n", termesc.Escape(k), NewRate(s.FailuresByKind[k], s.Episodes-s.AtReset)); err != nil {
			return fmt.Errorf("eval table: %w", err)
		}
	}
	return nil
}
