package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/trace"
	"github.com/thea-harness/thea/toolsets/user"
)

// newRunCmd: `thea run --spec FILE [INSTRUCTION...]` runs one session. With
// instructions as arguments it runs them one after another; without, it
// reads instructions from standard input, one per line, until an empty line
// or end of input. Exit 0 when every task ended with a final answer.
func (a *App) newRunCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run --spec FILE [INSTRUCTION...]",
		Short: "Run a session on the robot a spec declares",
		RunE: func(cmd *cobra.Command, args []string) error {
			specs := a.v.GetStringSlice(a.key(cmd, "spec"))
			if len(specs) == 0 {
				return usageError{errors.New("run needs --spec FILE (or THEA_RUN_SPEC)")}
			}
			logger := slog.New(slog.NewTextHandler(a.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			so := sessionOptions{runLogDir: a.str(cmd, "run-log"), logger: logger,
				terminal: user.NewTerminal(a.Stdin, a.Stderr)}
			c, err := a.catalog(logger, so.terminal)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(specs, c)
			if err != nil {
				return err
			}
			interactive := len(args) == 0
			if !interactive {
				so.terminal = nil
			}
			h, err := a.newHarness(cmd.Context(), spec, c, so)
			if err != nil {
				// It may quote a back-end's stderr: terminal-safe.
				fmt.Fprintf(a.Stderr, "thea: %s\n", trace.Block(err.Error()))
				return exitError{code: 1}
			}
			defer h.Close()
			tw := trace.New(a.Stdout, a.v.GetBool(a.key(cmd, "verbose")))
			next := instructionsFrom(args, so.terminal)
			failed := 0
			for {
				instruction, ok := next(cmd.Context())
				if !ok {
					break
				}
				if instruction == "/clear" { // the operator's clear, not a task
					fmt.Fprintf(a.Stderr, "cleared the robot's uncertain state (%d toolsets)\n", h.ClearUncertain())
					continue
				}
				if !a.runTask(cmd.Context(), h, tw, instruction) {
					failed++
				}
			}
			if failed > 0 {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s): one or more .cue files, or one .yaml/.json file")
	cmd.Flags().String("run-log", "", "directory for run logs (overrides run_log.dir)")
	cmd.Flags().Bool("verbose", false, "also print context sizes, skipped hooks and each call before it runs")
	return cmd
}

// runTask streams one task to the trace and reports whether it ended with a
// final answer.
func (a *App) runTask(ctx context.Context, h *engine.Harness, tw *trace.Writer, instruction string) bool {
	ok := false
	var werr error
	for ev := range h.RunStream(ctx, instruction) {
		if err := tw.Write(ev); err != nil && werr == nil {
			werr = err
		}
		if ev.Kind == engine.EventDone && ev.Done != nil {
			ok = ev.Done.Reason == engine.DoneFinal
		}
	}
	if werr != nil {
		fmt.Fprintf(a.Stderr, "thea: writing the trace: %v\n", werr)
	}
	return ok
}

// instructionsFrom yields the instructions of a session: the arguments, or
// lines asked of the terminal until an empty answer or end of input.
func instructionsFrom(args []string, term *user.Terminal) func(context.Context) (string, bool) {
	if term == nil {
		i := 0
		return func(context.Context) (string, bool) {
			if i >= len(args) {
				return "", false
			}
			i++
			return args[i-1], true
		}
	}
	return func(ctx context.Context) (string, bool) {
		s, err := term.Ask(ctx, engine.Question{Text: "Instruction (empty line ends the session):"})
		s = strings.TrimSpace(s)
		if err != nil || s == "" {
			return "", false
		}
		return s, true
	}
}

// newSimCmd: `thea sim serve` serves the bundled household simulator over
// stdio MCP, the way a spec's mcp toolset starts it.
func (a *App) newSimCmd() *cobra.Command {
	sim := &cobra.Command{Use: "sim", Short: "The bundled household simulator"}
	serve := &cobra.Command{
		Use:   "serve [--world FILE] [--seed N]",
		Short: "Serve the simulator as an MCP server over stdio",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			seed := a.v.GetUint64(a.key(cmd, "seed"))
			return serveSim(cmd.Context(), a, a.str(cmd, "world"), seed)
		},
	}
	serve.Flags().String("world", "", "world YAML file (default: examples/household/world.yaml found from the working directory up)")
	serve.Flags().Uint64("seed", 1, "seed of every random outcome; the same seed replays the same run")
	sim.AddCommand(serve)
	return sim
}
