package cli

import (
	"errors"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/mcpserve"
)

// newMCPCmd: `thea mcp --spec FILE` serves the session a spec builds as an
// MCP server over stdio: the client is the acting model.
func (a *App) newMCPCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp --spec FILE",
		Short: "Serve the robot a spec declares as an MCP server over stdio",
		Long: `Serve the robot a spec declares as an MCP server over stdio.

Any MCP client (Claude Desktop, an agent framework) acts on the robot as
Thea's acting model would: every call runs through the spec's hooks (a
block or a clamp is said in the result), the body layer and the evaluator,
and the result is the envelope with the verdict's status and reason. The
session is the one thea run builds (contracts, Scene Graph, Task Notes,
memory, run log); the spec's model serves only the evaluator, compaction
and memory consolidation. begin_task and end_task bound a task; a robot
call without begin_task opens one that ends after --idle without a call.

stdout is the protocol; logs go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			specs := a.v.GetStringSlice(a.key(cmd, "spec"))
			if len(specs) == 0 {
				return usageError{errors.New("mcp needs --spec FILE (or THEA_MCP_SPEC)")}
			}
			logger := a.logger(slog.LevelWarn)
			// stdin is the protocol: a question to the terminal would read
			// from it, so the terminal has no input and a question put to
			// it goes unanswered (a confirmation then blocks).
			term := channels.NewTerminal(strings.NewReader(""), a.Stderr)
			so := sessionOptions{runLogDir: a.str(cmd, "run-log"), logger: logger, terminal: term}
			wiring, err := a.session(logger, term)
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
			d := mcpserve.NewDecider()
			idle := a.v.GetDuration(a.key(cmd, "idle"))
			safety := newMCPSafety(idle)
			wiring.Decider, wiring.WrapUser = d, safety.Confirm.Over
			h, err := a.newHarness(cmd.Context(), spec, wiring, so)
			if err != nil {
				return a.failed("thea", err)
			}
			defer h.Close()
			srv, err := mcpserve.New(cmd.Context(), h, d, mcpserve.Options{
				Name: "thea", Version: spec.Name, Idle: idle, Safety: safety,
				MaxArgBytes: a.v.GetInt(a.key(cmd, "max-arg-bytes")), Logger: logger,
			})
			if err != nil {
				return a.failed("thea", err)
			}
			// Exit stops the body: SIGTERM and SIGINT cancel the command's
			// context, and stdin's end cancels every request still served
			// (mcp-go), so a motion in flight takes the stop path
			// (TestMCPExitRunsStopPath in toolsets/bodysuite).
			serveErr := srv.ServeStdio(cmd.Context(), a.Stdin, a.Stdout, 0, a.Stderr)
			if err := errors.Join(serveErr, srv.Close()); err != nil {
				return a.failed("thea mcp", err)
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s): one or more .cue files, or one .yaml/.json file")
	cmd.Flags().String("run-log", "", "directory for run logs (overrides run_log.dir)")
	cmd.Flags().String("seed", "", "run the back-ends with this seed ({{seed}} in a toolset command, or its --seed value)")
	cmd.Flags().Duration("idle", mcpserve.DefaultIdle, "end a task a client began without begin_task after this long without a call (negative: never)")
	cmd.Flags().Int("max-arg-bytes", mcpserve.DefaultMaxArgBytes, "refuse a call whose arguments are more JSON than this")
	return cmd
}
