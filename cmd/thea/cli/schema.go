package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/schema/reference"
)

// newSchemaCmd is `thea schema [--format cue|jsonschema|markdown] [--def
// NAME]`; --def prints one definition's JSON Schema, e.g. the back-end
// contract's observation, clearance, verdict or envelope. markdown is the
// spec reference (docs/reference/spec.md, written by `make docs`).
func (a *App) newSchemaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema [--format cue|jsonschema|markdown] [--def observation|clearance|verdict|envelope]",
		Short: "Print the spec schema (CUE), a JSON Schema generated from it for editors, or the Markdown spec reference",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.components(nil, nil)
			if err != nil {
				return err
			}
			var out []byte
			def := a.str(cmd, "def")
			switch f := a.str(cmd, "format"); f {
			case "cue":
				if def != "" {
					return usageError{fmt.Errorf("--def needs --format jsonschema")}
				}
				out = schema.CUESchema(c.Descriptors())
			case "jsonschema":
				b, err := schema.JSONSchemaDef(c.Descriptors(), def)
				if err != nil {
					if def != "" {
						return usageError{err}
					}
					return fmt.Errorf("generating JSON Schema: %w", err)
				}
				out = b
			case "markdown":
				if def != "" {
					return usageError{fmt.Errorf("--def needs --format jsonschema")}
				}
				b, err := reference.Markdown(c.Descriptors())
				if err != nil {
					return fmt.Errorf("generating the spec reference: %w", err)
				}
				out = b
			default:
				return usageError{fmt.Errorf("--format must be cue, jsonschema or markdown, not %q", f)}
			}
			if _, err := cmd.OutOrStdout().Write(out); err != nil {
				return fmt.Errorf("writing schema: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().String("format", "cue", "cue, jsonschema or markdown (the spec reference)")
	cmd.Flags().String("def", "", "with --format jsonschema: print one definition (observation, clearance, verdict, envelope: the back-end contract)")
	return cmd
}
