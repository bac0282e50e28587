package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/scaffold"
)

// newInitCmd: `thea init NAME [--body mobile|arm|fixed] [--dir DIR]`
// scaffolds a new robot's folder that validates and runs as created.
func (a *App) newInitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init NAME [--body " + strings.Join(scaffold.Bodies, "|") + "] [--dir DIR]",
		Short: "Scaffold a new robot's folder: spec, back-end stub, skill, rule tests",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := a.str(cmd, "dir")
			if dir == "" {
				dir = args[0]
			}
			files, err := scaffold.Create(scaffold.Options{Name: args[0], Body: a.str(cmd, "body"), Dir: dir})
			if err != nil {
				return usageError{fmt.Errorf("init: %w", err)}
			}
			fmt.Fprintf(a.Stdout, "created %s:\n", dir)
			for _, f := range files {
				fmt.Fprintf(a.Stdout, "  %s\n", f)
			}
			fmt.Fprintf(a.Stdout, "next: cd %s && thea validate spec.cue && thea run --spec spec.cue; README.md says what to fill in\n", dir)
			return nil
		},
	}
	cmd.Flags().String("body", "mobile", "body kind: "+strings.Join(scaffold.Bodies, ", "))
	cmd.Flags().String("dir", "", "folder to create (default: ./NAME); it must not exist or be empty")
	return cmd
}
