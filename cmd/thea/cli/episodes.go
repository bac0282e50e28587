package cli

import (
	"bytes"
	"context"

	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/schema"
)

// defaultSpecs are tried, in order, when a command that takes --spec is
// given none.
var defaultSpecs = []string{"spec.cue", "spec.yaml"}

// specFlag returns --spec, or the first default spec file in the working
// directory.
func (a *App) specFlag(cmd *cobra.Command) ([]string, error) {
	if specs := a.v.GetStringSlice(a.key(cmd, "spec")); len(specs) > 0 {
		return specs, nil
	}
	for _, f := range defaultSpecs {
		if _, err := os.Stat(f); err == nil {
			return []string{f}, nil
		}
	}
	return nil, usageError{fmt.Errorf("%s needs --spec FILE (no %s here)", cmd.Name(), strings.Join(defaultSpecs, " or "))}
}

// sessionFactory builds sessions of a spec with this binary's components,
// quietly (warnings only).
func (a *App) sessionFactory(wiring engine.Options, logger *slog.Logger) episode.NewSession {
	return func(ctx context.Context, s *schema.Spec, u engine.UserChannel) (*engine.Harness, error) {
		return a.newHarness(ctx, s, wiring, sessionOptions{logger: logger, user: u})
	}
}

// newTestCmd: `thea test [--spec FILE] [EPISODE...] [--junit FILE]` and
// `thea test --save RUN_DIR NAME`.
func (a *App) newTestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "test [--spec FILE] [EPISODE...] [--junit FILE] | test --save RUN_DIR NAME",
		Short: "Replay recorded episodes against a spec as regression tests",
		Long: `Replay recorded episodes against a spec as regression tests.

Each episode (a folder of <spec dir>/episodes/ holding events.jsonl, as
thea run --record writes it) is replayed: its recorded model responses are
fed back in order while the harness runs for real (tools, hooks, checks,
the simulator at the recorded seed). Where the harness produces something
different from the recording (a tool result, a verdict, a blocked call, a
clamped argument, how the task ended) the episode fails at that turn with
the differing field and a diff. Observations and tool results compare
within the spec's episodes.tolerance (exact by default); a field an
episode of an older format lacks is not compared. The spec's
episodes.reset step (a tool or a command) runs before each episode.
Exit 1 when any episode fails.

--save RUN_DIR NAME first makes a run's log (the task folder of a run log,
holding events.jsonl: a failure, a blocked call, an operator's stop) the
episode <spec dir>/episodes/NAME, then replays it.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := a.specFlag(cmd)
			if err != nil {
				return err
			}
			logger := a.logger(slog.LevelWarn)
			wiring, err := a.session(logger, nil)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(cmd.Context(), specs, wiring.Components)
			if err != nil {
				return err
			}
			junit := a.str(cmd, "junit")
			if junit != "" {
				if err := outfile.Check(junit); err != nil {
					return usageError{fmt.Errorf("--junit: %w", err)}
				}
			}
			var paths []string
			if run := a.str(cmd, "save"); run != "" {
				if len(args) != 1 {
					return usageError{fmt.Errorf("--save %s: give the episode's NAME, one plain name (e.g. thea test --save %s grasp-slips)", run, run)}
				}
				dest, err := a.saveEpisode(cmd, spec, run, args[0])
				if err != nil {
					return err
				}
				paths = []string{dest}
			} else if paths, err = episode.Find(spec, args); err != nil {
				fmt.Fprintf(a.Stderr, "thea: %s\n", termesc.Escape(err.Error()))
				return exitError{code: 1}
			}
			start := time.Now()
			results := episode.Test(cmd.Context(), spec, paths, a.sessionFactory(wiring, logger))
			failed := printResults(a, results)
			if junit != "" {
				var b bytes.Buffer
				if err := episode.WriteJUnit(&b, spec.Name, results, start); err != nil {
					return err
				}
				if err := outfile.Write(junit, b.Bytes(), 0o644); err != nil {
					return fmt.Errorf("--junit: %w", err)
				}
			}
			if failed > 0 {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s) (default: spec.cue or spec.yaml here)")
	cmd.Flags().String("junit", "", "also write the results as JUnit XML to this file")
	cmd.Flags().String("save", "", "save this run's log (a task folder of a run log) as the episode NAME, then replay it")
	return cmd
}

// saveEpisode is thea test --save RUN_DIR NAME: the run's log becomes the
// episode folder NAME beside the spec. An existing episode is not
// overwritten.
func (a *App) saveEpisode(cmd *cobra.Command, spec *schema.Spec, run, name string) (string, error) {
	dest, err := episode.RecordDir(spec, name)
	if err != nil {
		return "", usageError{fmt.Errorf("--save: %w", err)}
	}
	if _, err := os.Lstat(dest); err == nil {
		return "", usageError{fmt.Errorf("--save: the episode %s already exists: remove it or choose another name", dest)}
	}
	if err := episode.SaveNewRun(cmd.Context(), run, dest); err != nil {
		return "", usageError{fmt.Errorf("--save %s: %w", run, err)}
	}
	fmt.Fprintf(a.Stderr, "thea: episode saved in %s\n", termesc.Escape(dest))
	return dest, nil
}

// printResults prints one line per episode (and a failure's divergence)
// and a summary; it returns how many failed.
func printResults(a *App, results []episode.Result) int {
	failed := 0
	for _, r := range results {
		note := ""
		if r.SpecChanged {
			note = ", spec changed since recording"
		}
		switch {
		case r.Passed():
			fmt.Fprintf(a.Stdout, "PASS %s (%d turns, %.1fs%s)\n", termesc.Escape(r.Name), r.Turns, r.Duration.Seconds(), note)
		case r.Error != "":
			failed++
			fmt.Fprintf(a.Stdout, "FAIL %s: %s\n", termesc.Escape(r.Name), termesc.Escape(r.Error))
		default:
			failed++
			fmt.Fprintf(a.Stdout, "FAIL %s%s: %s", termesc.Escape(r.Name), note, indent(r.Divergence.String()))
		}
	}
	fmt.Fprintf(a.Stdout, "%d passed, %d failed\n", len(results)-failed, failed)
	return failed
}

// indent escapes a multi-line text for the terminal, its continuation lines
// indented under the first.
func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = termesc.Escape(l)
	}
	return strings.Join(lines, "\n    ") + "\n"
}
