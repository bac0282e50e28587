package cli

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/schema"
)

// components is this binary's component catalog alone, for the commands
// that validate or describe a spec without running it.
func (a *App) components(logger *slog.Logger, term *channels.Terminal) (*engine.Components, error) {
	w, err := a.session(logger, term)
	if err != nil {
		return nil, err
	}
	return w.Components, nil
}

// session is this binary's wiring of a session, from the one wiring call
// (components.Session); term is the process's terminal, shared with the
// instruction reader when there is one.
func (a *App) session(logger *slog.Logger, term *channels.Terminal) (engine.Options, error) {
	if term == nil {
		term = channels.NewTerminal(a.Stdin, a.Stderr)
	}
	w, err := components.Session(components.Options{Logger: logger, Terminal: term})
	if err != nil {
		return engine.Options{}, fmt.Errorf("building the components: %w", err)
	}
	return w, nil
}

// loadSpec loads and validates spec files against the components' descriptors, printing
// every diagnostic (warnings too).
func (a *App) loadSpec(ctx context.Context, paths []string, c *engine.Components) (*schema.Spec, error) {
	opts, err := a.loadOptions(ctx, c)
	if err != nil {
		return nil, err
	}
	spec, diags := schema.Load(paths, opts)
	if spec != nil {
		diags = spec.Warnings
	}
	for _, d := range diags {
		fmt.Fprintln(a.Stderr, d.String())
	}
	if spec == nil {
		return nil, exitError{code: 1}
	}
	return spec, nil
}

// sessionOptions are the run-time choices of one session.
type sessionOptions struct {
	runLogDir string
	logger    *slog.Logger
	// terminal is the shared terminal when instructions are read from the
	// same input as the user's answers.
	terminal *channels.Terminal
	// user overrides the spec's user channel (thea serve answers over HTTP).
	user engine.UserChannel
	// secretEnv names the host's own credentials (thea serve's
	// --token-env), redacted beside the spec's.
	secretEnv []string
	// sinks are further event sinks (metrics, traces).
	sinks []engine.SinkFactory
}

// newHarness builds one session from a validated spec with this binary's
// wiring and the run's own choices.
func (a *App) newHarness(ctx context.Context, spec *schema.Spec, wiring engine.Options, so sessionOptions) (*engine.Harness, error) {
	opts := wiring
	opts.RunLogDir, opts.Logger, opts.User, opts.SecretEnv = so.runLogDir, so.logger, so.user, so.secretEnv
	opts.Sinks = append(append([]engine.SinkFactory(nil), opts.Sinks...), so.sinks...)
	if k := killAtEvent(); k != nil {
		opts.Sinks = append(append([]engine.SinkFactory(nil), opts.Sinks...), k)
	}
	h, err := engine.New(ctx, spec, opts)
	if err != nil {
		return nil, fmt.Errorf("starting the session: %w", err)
	}
	return h, nil
}

// logger is the process's log on stderr, at level and above.
func (a *App) logger(level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(a.Stderr, &slog.HandlerOptions{Level: level}))
}

// failed prints an error that may quote a back-end's stderr, terminal-safe,
// and ends the command with exit 1.
func (a *App) failed(prefix string, err error) error {
	fmt.Fprintf(a.Stderr, "%s: %s\n", prefix, trace.Block(err.Error()))
	return exitError{code: 1}
}
