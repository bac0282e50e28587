package cli

import (
	"errors"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/operator"
)

// newRunCmd: `thea run --spec FILE [INSTRUCTION...]` runs one session. With
// instructions as arguments it runs them one after another and exits: 0
// when every task ended with a final answer, 1 otherwise. Without, it is an
// interactive session at the terminal (package operator).
func (a *App) newRunCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run --spec FILE [INSTRUCTION...]",
		Short: "Run a session on the robot a spec declares",
		Long: `Run a session on the robot a spec declares.

With instructions as arguments, run them one after another and exit (0 when
every task ended with a final answer, 1 otherwise). Without, read
instructions at the terminal: Accumulated context carries over from task to
task. While a task runs, /replan TEXT revises its instruction and /stop (or
Ctrl-C) stops it safely; when idle, /reset clears the session and /quit (or
Ctrl-D, or Ctrl-C twice within two seconds) leaves.

On a terminal the events show as a live view; otherwise as plain trace
lines; --json prints the raw (redacted) event stream as JSON lines.`,
		Annotations: map[string]string{ownsInterrupts: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			specs := a.v.GetStringSlice(a.key(cmd, "spec"))
			if len(specs) == 0 {
				return usageError{errors.New("run needs --spec FILE (or THEA_RUN_SPEC)")}
			}
			logger := a.logger(slog.LevelWarn)
			// One terminal for the process: query_user's questions and the
			// session's instructions share its input.
			term := channels.NewTerminal(a.Stdin, a.Stderr)
			so := sessionOptions{runLogDir: a.str(cmd, "run-log"), logger: logger, terminal: term}
			wiring, err := a.session(logger, so.terminal)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(cmd.Context(), specs, wiring.Components)
			if err != nil {
				return err
			}
			if spec, err = a.seeded(cmd, spec); err != nil {
				return err
			}
			obs, err := a.startObservability(cmd, spec.Name, false, logger)
			if err != nil {
				return err
			}
			defer func() {
				if err := obs.stop(cmd.Context()); err != nil {
					logger.Warn("telemetry", "err", err)
				}
			}()
			so.sinks = obs.sinks()
			rec, err := a.startRecording(cmd, &so, spec)
			if err != nil {
				return err
			}
			defer rec.finish(spec)
			h, err := a.newHarness(cmd.Context(), spec, wiring, so)
			if err != nil {
				return a.failed("thea", err)
			}
			defer h.Close()
			v, animated := a.newView(a.Stdout, a.v.GetBool(a.key(cmd, "json")), a.v.GetBool(a.key(cmd, "verbose")))
			con := &operator.Console{Session: h, Terminal: term, View: v, Signals: a.Signals}
			if animated {
				ticker := time.NewTicker(tickEvery)
				defer ticker.Stop()
				con.Tick = ticker.C
			}
			if dir := a.str(cmd, "resume"); dir != "" {
				if len(args) > 0 {
					return usageError{errors.New("run --resume continues the checkpoint's instruction: give no instruction")}
				}
				info, err := readResume(cmd.Context(), h, dir, a.Stderr)
				if err != nil {
					return a.failed("thea", err)
				}
				con.Session = &resumeSession{Harness: h, dir: dir}
				args = []string{info.Checkpoint.Instruction}
			}
			if len(args) == 0 {
				if a.PauseKey != nil {
					keys, release := a.PauseKey()
					defer release()
					con.Pauses = keys
				}
				con.Interactive(cmd.Context())
				return nil
			}
			if !con.Batch(cmd.Context(), args) {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s): one or more .cue files, or one .yaml/.json file")
	cmd.Flags().String("run-log", "", "directory for run logs (overrides run_log.dir)")
	cmd.Flags().Bool("verbose", false, "also print context sizes, skipped hooks and each call before it runs")
	cmd.Flags().Bool("json", false, "print the raw (redacted) event stream as JSON lines")
	cmd.Flags().String("record", "", "save each task as an episode for thea test in <spec dir>/episodes/NAME (NAME a plain name: no path separator, not . or ..)")
	cmd.Flags().String("seed", "", "run the back-ends with this seed ({{seed}} in a toolset command, or its --seed value)")
	addTelemetryFlags(cmd, true)
	cmd.Flags().String("resume", "", "continue the unfinished task of this run directory from its checkpoint (see docs/resume.md)")
	return cmd
}

// newSimCmd: `thea sim serve` serves the bundled household simulator over
// stdio MCP, the way a spec's mcp toolset starts it.
func (a *App) newSimCmd() *cobra.Command {
	sim := &cobra.Command{Use: "sim", Short: "The bundled household simulator",
		Long: "The bundled household simulator (thea sim serve). thea sim <kind> [args] serves the fake back-end a toolset kind offers for offline demos (an unknown name lists the kinds that have one).",
		// Anything but serve is a toolset kind's fake, with its own flags.
		DisableFlagParsing: true,
		RunE:               a.runFake,
	}
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
