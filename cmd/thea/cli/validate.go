package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/schema"
)

// newValidateCmd is `thea validate [--format text|json] FILE...`: exit 0 when
// the spec is valid, 1 with every problem listed, 2 on a usage error.
func (a *App) newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate [--format text|json] FILE...",
		Short: "Check a spec (one YAML/JSON file, or the .cue files of one spec) and run its rule tests",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			format := a.str(cmd, "format")
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			c, err := a.catalog(nil, nil)
			if err != nil {
				return err
			}
			spec, diags := schema.Load(files, schema.LoadOptions{Profiles: a.Profiles, Catalog: c.Schema()})
			failed := spec == nil
			if spec != nil {
				diags = spec.Warnings
				if sk := skillDiagnostics(spec); len(sk) > 0 {
					failed, diags = true, append(diags, sk...)
				}
				if a.RuleTests != nil {
					tests := a.RuleTests(cmd.Context(), spec)
					failed = failed || len(tests) > 0
					diags = append(diags, tests...)
				}
			}
			if err := writeDiagnostics(cmd, format, diags); err != nil {
				return err
			}
			if failed {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().String("format", "text", "output format: text (file:line:col: message) or json")
	return cmd
}

// writeDiagnostics prints diagnostics as lines, or as one JSON array (empty
// when valid) for CI annotations.
func writeDiagnostics(cmd *cobra.Command, format string, diags []schema.Diagnostic) error {
	out := cmd.OutOrStdout()
	if format == "json" {
		if diags == nil {
			diags = []schema.Diagnostic{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(diags); err != nil {
			return fmt.Errorf("writing diagnostics: %w", err)
		}
		return nil
	}
	for _, d := range diags {
		if _, err := fmt.Fprintln(out, d.String()); err != nil {
			return fmt.Errorf("writing diagnostics: %w", err)
		}
	}
	return nil
}
