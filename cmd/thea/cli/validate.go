package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/livecheck"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
)

// newValidateCmd is `thea validate [--format text|json] [--live] FILE...`:
// exit 0 when the spec is valid (text: one summary line; json: one object,
// ok and diagnostics, either way), 1 with every problem listed, 2 on a usage
// error. --live also starts every toolset and
// checks the spec against the running back-ends.
func (a *App) newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate [--format text|json] [--live] FILE...",
		Short: "Check a spec (one YAML/JSON file, or the .cue files of one spec) and run its rule tests",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			format := a.str(cmd, "format")
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			c, err := a.components(nil, nil)
			if err != nil {
				return err
			}
			opts, err := a.loadOptions(cmd.Context(), c)
			if err != nil {
				return err
			}
			spec, diags := schema.Load(files, opts)
			failed := spec == nil
			var sum policies.TestSummary
			if spec != nil {
				diags = spec.Warnings
				if sk := skillDiagnostics(cmd.Context(), spec); len(sk) > 0 {
					failed, diags = true, append(diags, sk...)
				}
				if a.RuleTests != nil {
					var tests []schema.Diagnostic
					tests, sum = a.RuleTests(cmd.Context(), spec, c)
					failed = failed || len(tests) > 0
					diags = append(diags, tests...)
				}
				if a.v.GetBool(a.key(cmd, "live")) {
					live := livecheck.Check(cmd.Context(), spec, c, livecheck.Options{Timeout: a.v.GetDuration(a.key(cmd, "live-timeout"))})
					for _, d := range live {
						failed = failed || !d.Warning
					}
					diags = append(diags, live...)
				}
			}
			// Warnings are printed but do not fail validation.
			if format == "json" {
				if err := writeValidateJSON(cmd, !failed, diags, sum); err != nil {
					return err
				}
				if failed {
					return exitError{1}
				}
				return nil
			}
			if err := writeDiagnostics(cmd, diags); err != nil {
				return err
			}
			if failed {
				return exitError{1}
			}
			line := fmt.Sprintf("spec ok: %s compiled, %s passed", plural(sum.Rules, "rule"), plural(sum.Tests, "test"))
			if a.v.GetBool(a.key(cmd, "live")) {
				line += ", back-ends checked live"
			}
			if n := len(spec.Warnings); n > 0 {
				line += fmt.Sprintf(" (%s)", plural(n, "warning"))
			}
			if _, err := fmt.Fprintln(cmd.OutOrStdout(), line); err != nil {
				return fmt.Errorf("writing the summary: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().String("format", "text", "output format: text (file:line:col: message) or json (one object: ok, diagnostics, and on success rules and tests)")
	cmd.Flags().Bool("live", false, "start every toolset and check tool and argument names and the observation and clearance answers against the running back-ends")
	cmd.Flags().Duration("live-timeout", 20*time.Second, "with --live: how long a toolset may take to start, and a contract call to answer")
	return cmd
}

// writeDiagnostics prints diagnostics as lines.
func writeDiagnostics(cmd *cobra.Command, diags []schema.Diagnostic) error {
	for _, d := range diags {
		if _, err := fmt.Fprintln(cmd.OutOrStdout(), d.String()); err != nil {
			return fmt.Errorf("writing diagnostics: %w", err)
		}
	}
	return nil
}

// validateResult is `thea validate --format json`: whether the spec is
// valid, every diagnostic (warnings included), and on success what was
// checked.
type validateResult struct {
	OK          bool                `json:"ok"`
	Diagnostics []schema.Diagnostic `json:"diagnostics"`
	Rules       int                 `json:"rules,omitempty"`
	Tests       int                 `json:"tests,omitempty"`
}

// writeValidateJSON prints one JSON object for CI: {"ok": true,
// "diagnostics": [], "rules": 19, "tests": 7}, or ok false and the
// problems.
func writeValidateJSON(cmd *cobra.Command, ok bool, diags []schema.Diagnostic, sum policies.TestSummary) error {
	r := validateResult{OK: ok, Diagnostics: diags}
	if r.Diagnostics == nil {
		r.Diagnostics = []schema.Diagnostic{}
	}
	if ok {
		r.Rules, r.Tests = sum.Rules, sum.Tests
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("writing diagnostics: %w", err)
	}
	return nil
}

// plural writes "1 rule", "12 rules".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
