package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/mcpserve"
	"github.com/thea-harness/thea/serve"
)

// newServeCmd: `thea serve --spec FILE [--addr HOST:PORT] [--token-env
// NAME] [--max-conns N] [--max-conns-per-ip N] [--max-image-bytes N]
// [--otlp-endpoint URL]` serves one session over HTTP and Server-Sent
// Events, with the operator's web console at / and Prometheus metrics at
// /metrics, until interrupted. Off loopback it refuses to
// start without a bearer token, which is read from the environment variable
// --token-env names, never from the command line (argv is visible to every
// user of the machine).
func (a *App) newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve --spec FILE [--addr 127.0.0.1:PORT] [--token-env NAME] [--max-conns N] [--max-conns-per-ip N] [--max-image-bytes N]",
		Short: "Serve a session over HTTP/SSE, with a web console for its operator",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			specs := a.v.GetStringSlice(a.key(cmd, "spec"))
			if len(specs) == 0 {
				return usageError{errors.New("serve needs --spec FILE (or THEA_SERVE_SPEC)")}
			}
			addr := a.str(cmd, "addr")
			maxConns, maxPerIP := a.v.GetInt(a.key(cmd, "max-conns")), a.v.GetInt(a.key(cmd, "max-conns-per-ip"))
			if maxConns < 0 || maxPerIP < 0 {
				return usageError{fmt.Errorf("--max-conns %d, --max-conns-per-ip %d: want positive bounds (0 for the default)", maxConns, maxPerIP)}
			}
			maxImages := a.v.GetInt(a.key(cmd, "max-image-bytes"))
			if maxImages < 0 {
				return usageError{fmt.Errorf("--max-image-bytes %d: want a positive bound (0 for the default)", maxImages)}
			}
			tokenEnv := a.str(cmd, "token-env")
			token := ""
			if tokenEnv != "" {
				token = os.Getenv(tokenEnv)
			}
			// Refuse before anything starts: no back-end is spawned for a
			// server that may not listen.
			if err := serve.CheckBind(addr, token); err != nil {
				fmt.Fprintf(a.Stderr, "thea serve: %v\n", err)
				return exitError{code: 1}
			}
			logger := a.logger(slog.LevelWarn)
			// Connections are bounded well below the open-file limit, so a
			// flood of clients never makes accept fail; raise it first.
			if _, err := serve.RaiseFileLimit(); err != nil {
				logger.Warn("the open-file limit stays as it is; the connection bound follows it", "error", err)
			}
			wiring, err := a.session(logger, nil)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(cmd.Context(), specs, wiring.Components)
			if err != nil {
				return err
			}
			obs, err := a.startObservability(cmd, spec.Name, true, logger)
			if err != nil {
				return err
			}
			defer func() {
				if err := obs.stop(cmd.Context()); err != nil {
					logger.Warn("telemetry", "err", err)
				}
			}()
			cfg := serve.Config{Token: token, Logger: logger, MaxConns: maxConns, MaxConnsPerIP: maxPerIP, MaxImageBytes: maxImages,
				Metrics: obs.metrics.Handler()}
			var mcpFace *serveMCP // thea serve --mcp (mcpface.go)
			if a.v.GetBool(a.key(cmd, "mcp")) {
				mcpFace = &serveMCP{idle: a.v.GetDuration(a.key(cmd, "mcp-idle"))}
				mcpFace.wire(&wiring, &cfg)
			}
			srv := serve.New(cfg)
			var secretEnv []string
			if tokenEnv != "" {
				secretEnv = []string{tokenEnv} // the console's token is a credential too
			}
			h, err := a.newHarness(cmd.Context(), spec, wiring, sessionOptions{
				runLogDir: a.str(cmd, "run-log"), logger: logger, user: srv.User(), secretEnv: secretEnv, sinks: obs.sinks()})
			if err != nil {
				return a.failed("thea", err)
			}
			var sess serve.Session = h
			if mcpFace != nil {
				if err := mcpFace.start(cmd.Context(), h, spec.Name); err != nil {
					return a.failed("thea", errors.Join(err, h.Close()))
				}
				sess = faceSession{Harness: h, face: mcpFace.face}
			}
			// A resume that cannot happen (no checkpoint, a task that
			// already ended) is refused before the server listens.
			if dir := a.str(cmd, "resume"); dir != "" {
				info, err := readResume(cmd.Context(), h, dir, a.Stderr)
				if err != nil {
					return a.failed("thea serve", errors.Join(err, sess.Close()))
				}
				rs := &resumeSession{Harness: h, dir: dir}
				if mcpFace != nil {
					rs.face = mcpFace.face
				}
				sess = rs
				srv.Resume(info.Checkpoint.Instruction)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				fmt.Fprintf(a.Stderr, "thea serve: %v\n", errors.Join(err, sess.Close()))
				return exitError{code: 1}
			}
			fmt.Fprintf(a.Stderr, "thea serve: session %q on http://%s (console at /, API description at /openapi.json)\n",
				termesc.Escape(spec.Name), ln.Addr())
			// Serve closes the listener and the session when it returns.
			if err := srv.Serve(cmd.Context(), ln, sess); err != nil {
				return a.failed("thea serve", err)
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s): one or more .cue files, or one .yaml/.json file")
	cmd.Flags().String("addr", "127.0.0.1:7878", "listen address; off loopback a bearer token is required")
	cmd.Flags().String("token-env", "THEA_SERVE_TOKEN", "environment variable holding the bearer token (at least 16 characters)")
	cmd.Flags().String("run-log", "", "directory for run logs (overrides run_log.dir)")
	cmd.Flags().Int("max-conns", 0, "bound on open connections (default 4096, at most half the open-file limit)")
	cmd.Flags().Int("max-conns-per-ip", 0, "bound on one client address's connections before one carries an authorized request (default 256)")
	cmd.Flags().Bool("mcp", false, "also serve the session to MCP clients over streamable HTTP at /mcp, behind the same token")
	cmd.Flags().Duration("mcp-idle", mcpserve.DefaultIdle, "with --mcp: end a client's implicit task, and release its hold on the body, after this long without a call (negative: never)")
	cmd.Flags().String("resume", "", "continue the unfinished task of this run directory from its checkpoint as the first task (see docs/resume.md)")
	cmd.Flags().Int("max-image-bytes", 0, "bound on the camera images kept in memory for the console and clients (default 64 MiB)")
	addTelemetryFlags(cmd, false)
	return cmd
}
