package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/schema"
)

// newEvalCmd: `thea eval --spec FILE --episodes N [--seeds A..B]
// [--parallel P] [--shard i/n] [--format table|json] [INSTRUCTION...]` and
// `thea eval merge RESULT...`.
func (a *App) newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval --spec FILE --episodes N [--seeds A..B] [--repeats K] [--blind] [--success-at-reset EXPR] [--parallel P] [--shard i/n] [--format table|json] [INSTRUCTION]",
		Short: "Run a task over many simulator seeds and report its success rate",
		Long: `Run a task over many simulator seeds and report its success rate.

Each seed is one episode in a fresh session: the seed replaces {{seed}} in
the spec's toolset command lines, or the value of their --seed flag. The
instruction is the arguments, or the instruction of the spec's first
recorded episode. An episode succeeds when the task ends with a final
answer and no tool's last evaluator verdict is a failure.

Every rate is reported with its 95% Wilson score interval; thea eval
compare A.json B.json says whether B is better, worse, the same or that the
seeds are too few to tell, rate by rate (paired by seed when both ran the
same seeds). --save-failures DIR saves each failing seed as an episode
(DIR/seed-N) that thea test replays.

--repeats K runs each seed K times, repeat r on the back-end seed
RepeatSeed(seed, r) (the seed itself for r = 0), and adds pass^k (all of k
repeats of a seed succeed) beside the success rate. --success-at-reset EXPR
flags an episode whose task already held at reset (EXPR over after, the
first observation) and leaves it out of the rates. --blind withholds every
observation from the model (the ablation): hooks and the evaluator still
read them.

--shard i/n runs only the seeds whose index in the list is i modulo n, so n
machines (a Slurm job array's task ids, a Kubernetes Indexed Job's
completion indexes) share one evaluation; thea eval merge combines their
JSON results.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := a.specFlag(cmd)
			if err != nil {
				return err
			}
			format := a.str(cmd, "format")
			if format != "table" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want table or json", format)}
			}
			seeds, err := a.evalSeeds(cmd)
			if err != nil {
				return err
			}
			if err := a.checkEvalOut(cmd); err != nil {
				return err
			}
			saveDir := a.str(cmd, "save-failures")
			if saveDir != "" {
				if err := os.MkdirAll(saveDir, 0o755); err != nil {
					return usageError{fmt.Errorf("--save-failures: %w", err)}
				}
			}
			repeats := a.v.GetInt(a.key(cmd, "repeats"))
			if repeats < 1 {
				return usageError{fmt.Errorf("--repeats %d: want 1 or more episodes per seed", repeats)}
			}
			logger := a.logger(slog.LevelError)
			wiring, err := a.session(logger, nil)
			if err != nil {
				return err
			}
			wiring.Blind = a.v.GetBool(a.key(cmd, "blind"))
			spec, err := a.loadSpec(cmd.Context(), specs, wiring.Components)
			if err != nil {
				return err
			}
			var atReset *episode.ResetCheck
			if src := a.str(cmd, "success-at-reset"); src != "" {
				if atReset, err = episode.NewResetCheck(spec, src); err != nil {
					return usageError{fmt.Errorf("--success-at-reset %w", err)}
				}
			}
			instruction := strings.Join(args, " ")
			if instruction == "" {
				if instruction, err = firstInstruction(cmd.Context(), spec); err != nil {
					return usageError{err}
				}
			}
			res, err := episode.Eval(cmd.Context(), spec, episode.EvalConfig{
				Instruction: instruction, Seeds: seeds, Parallel: a.v.GetInt(a.key(cmd, "parallel")),
				SaveFailures: saveDir, Repeats: repeats, Blind: wiring.Blind, SuccessAtReset: atReset,
				Progress: func(done, total int, o episode.Outcome) {
					// One line per episode on stderr: a long run's (or a pod's) log.
					status := "ok"
					if !o.Success {
						status = "FAIL " + o.FailureKind
					}
					if o.Saved != "" {
						status += ", saved in " + o.Saved
					}
					if o.SaveError != "" {
						status += ", not saved: " + o.SaveError
					}
					if o.SuccessAtReset {
						status += " (success held at reset: not rated)"
					}
					seed := fmt.Sprint(o.Seed)
					if o.Repeat > 0 {
						seed += fmt.Sprintf(" repeat %d", o.Repeat)
					}
					fmt.Fprintf(a.Stderr, "thea eval: seed %s %s (%d turns) [%d/%d]\n", seed, termesc.Escape(status), o.Turns, done, total)
				},
			}, a.sessionFactory(wiring, logger))
			if errors.Is(err, episode.ErrBodyLockRefused) {
				// A failed evaluation (exit 1), not a usage error.
				fmt.Fprintf(a.Stderr, "thea: %v\n", err)
				return exitError{1}
			}
			if err != nil {
				return err
			}
			if err := a.writeEval(cmd, res, format); err != nil {
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s) (default: spec.cue or spec.yaml here)")
	cmd.Flags().Int("episodes", 0, "how many seeds to run, from the start of --seeds (0: all of --seeds)")
	cmd.Flags().String("seeds", "", "seed range A..B (default 1..N with --episodes N)")
	cmd.Flags().Int("parallel", 1, "sessions run at once")
	cmd.Flags().String("shard", "0/1", "run only shard i of n: the seeds whose index is i modulo n")
	cmd.Flags().String("format", "table", "table or json")
	cmd.Flags().String("out", "", "also write the JSON result to this file (for thea eval merge)")
	cmd.Flags().Int("repeats", 1, "episodes per seed, each on its own back-end seed; above 1 the summary gives pass^k")
	cmd.Flags().Bool("blind", false, "withhold observations from the model (the ablation): no observation text, Brief or image; hooks and the evaluator still read them")
	cmd.Flags().String("success-at-reset", "", "the task's success as an expr over after (the first observation, before the model decides): episodes where it holds are flagged and not rated")
	cmd.Flags().String("save-failures", "", "save each failing seed's run as an episode, DIR/seed-N (replay with thea test DIR/seed-N)")
	cmd.AddCommand(a.newEvalMergeCmd(), a.newEvalCompareCmd())
	return cmd
}

func (a *App) evalSeeds(cmd *cobra.Command) ([]uint64, error) {
	n := a.v.GetInt(a.key(cmd, "episodes"))
	sh, err := episode.ParseShard(a.str(cmd, "shard"))
	if err != nil {
		return nil, usageError{fmt.Errorf("--shard: %w", err)}
	}
	var r episode.SeedRange
	switch s := a.str(cmd, "seeds"); {
	case s != "":
		if r, err = episode.ParseSeedRange(s); err != nil {
			return nil, usageError{fmt.Errorf("--seeds: %w", err)}
		}
	case n > 0:
		r = episode.SeedRange{From: 1, To: uint64(n)}
	default:
		return nil, usageError{fmt.Errorf("eval needs --episodes N or --seeds A..B")}
	}
	seeds, err := episode.Seeds(r, n, sh)
	if err != nil {
		return nil, usageError{err}
	}
	return seeds, nil
}

// firstInstruction is the instruction of the spec's first recorded episode.
func firstInstruction(ctx context.Context, spec *schema.Spec) (string, error) {
	paths, err := episode.Find(spec, nil)
	if err != nil {
		return "", fmt.Errorf("no instruction given and %w", err)
	}
	ep, err := episode.Load(ctx, paths[0])
	if err != nil {
		return "", err
	}
	return ep.Instruction, nil
}

// checkEvalOut refuses an --out that cannot be written (a FIFO, a device,
// a directory) before any episode runs.
func (a *App) checkEvalOut(cmd *cobra.Command) error {
	if out := a.str(cmd, "out"); out != "" {
		if err := outfile.Check(out); err != nil {
			return usageError{fmt.Errorf("--out: %w", err)}
		}
	}
	return nil
}

func (a *App) writeEval(cmd *cobra.Command, res *episode.EvalResult, format string) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	b = append(b, '\n')
	if out := a.str(cmd, "out"); out != "" {
		if err := outfile.Write(out, b, 0o644); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	if format == "json" {
		_, err = a.Stdout.Write(b)
	} else {
		err = res.WriteTable(a.Stdout)
	}
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}

func (a *App) newEvalMergeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge RESULT...",
		Short: "Combine the JSON results of an evaluation's shards",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format := a.str(cmd, "format")
			if format != "table" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want table or json", format)}
			}
			if err := a.checkEvalOut(cmd); err != nil {
				return err
			}
			parts := make([]*episode.EvalResult, 0, len(args))
			for _, p := range args {
				b, err := readfile.Read(cmd.Context(), p, readfile.EvalResult)
				if err != nil {
					return fmt.Errorf("merge: %w", err)
				}
				r, err := episode.ParseEvalResult(p, b)
				if err != nil {
					fmt.Fprintf(a.Stderr, "thea: merge: %s\n", termesc.Escape(err.Error()))
					return exitError{code: 1}
				}
				parts = append(parts, r)
			}
			m, err := episode.Merge(parts...)
			if err != nil {
				fmt.Fprintf(a.Stderr, "thea: %s\n", termesc.Escape(err.Error()))
				return exitError{code: 1}
			}
			return a.writeEval(cmd, m, format)
		},
	}
	cmd.Flags().String("format", "table", "table or json")
	cmd.Flags().String("out", "", "also write the merged JSON result to this file")
	return cmd
}
