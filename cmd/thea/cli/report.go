package cli

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/report"
)

// newReportCmd: `thea report RUN_DIR [-o FILE]` writes one self-contained
// HTML page of a task from its run directory: RUN_DIR/report.html by
// default, standard output with -o -. With --format mcap it writes the run
// as an MCAP file for Foxglove instead (RUN_DIR/run.mcap by default).
func (a *App) newReportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report RUN_DIR [-o FILE] [--format html|mcap]",
		Short: "Write a self-contained HTML page of a run (or an MCAP file for Foxglove) from its run directory",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("report needs one RUN_DIR (a directory with events.jsonl)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			format := a.str(cmd, "format")
			write, name := report.Write, "report.html"
			switch format {
			case "html":
			case "mcap":
				write, name = report.WriteMCAP, "run.mcap"
			default:
				return usageError{fmt.Errorf("--format %q: want html or mcap", format)}
			}
			out := a.str(cmd, "output")
			if out == "" {
				out = filepath.Join(dir, name)
			}
			if out != "-" {
				if err := outfile.Check(out); err != nil {
					fmt.Fprintf(a.Stderr, "thea report: %s\n", termesc.Escape(err.Error()))
					return exitError{code: 1}
				}
			}
			var page bytes.Buffer
			if err := write(cmd.Context(), &page, dir); err != nil {
				fmt.Fprintf(a.Stderr, "thea report: %s\n", termesc.Escape(err.Error()))
				return exitError{code: 1}
			}
			if out == "-" {
				_, err := a.Stdout.Write(page.Bytes())
				return err
			}
			// The page holds the run's data: 0600.
			if err := outfile.Write(out, page.Bytes(), 0o600); err != nil {
				fmt.Fprintf(a.Stderr, "thea report: %s\n", termesc.Escape(err.Error()))
				return exitError{code: 1}
			}
			fmt.Fprintf(a.Stderr, "report: %s\n", termesc.Escape(out))
			return nil
		},
	}
	cmd.Flags().StringP("output", "o", "", "output file (default RUN_DIR/report.html, or RUN_DIR/run.mcap with --format mcap; - for standard output)")
	cmd.Flags().String("format", "html", "html: one self-contained page; mcap: an MCAP file with Foxglove's schemas")
	return cmd
}
