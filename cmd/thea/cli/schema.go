package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/schema"
)

// newSchemaCmd is `thea schema [--format cue|jsonschema]`.
func (a *App) newSchemaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schema [--format cue|jsonschema]",
		Short: "Print the spec schema (CUE), or a JSON Schema generated from it for editors",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.catalog(nil, nil)
			if err != nil {
				return err
			}
			var out []byte
			switch f := a.str(cmd, "format"); f {
			case "cue":
				out = schema.CUESchema(c.Schema())
			case "jsonschema":
				b, err := schema.JSONSchema(c.Schema())
				if err != nil {
					return fmt.Errorf("generating JSON Schema: %w", err)
				}
				out = b
			default:
				return usageError{fmt.Errorf("--format must be cue or jsonschema, not %q", f)}
			}
			if _, err := cmd.OutOrStdout().Write(out); err != nil {
				return fmt.Errorf("writing schema: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().String("format", "cue", "cue or jsonschema")
	return cmd
}
