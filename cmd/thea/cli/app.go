package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
)

// App is the command line's wiring: its streams and the pieces other
// packages provide. There is no global state; tests build their own App.
type App struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Profiles are the bundled embodiment profiles a CUE spec may name.
	Profiles map[string]string
	// RuleTests runs a spec's rule tests and counts what it checked,
	// resolving hook actions through the catalog the spec was loaded with
	// (the one `thea run` builds from); validate calls it when non-nil.
	RuleTests func(ctx context.Context, s *schema.Spec, c *engine.Components) ([]schema.Diagnostic, policies.TestSummary)
	// Signals delivers the process's interrupts (SIGINT). `thea run` turns
	// one into a safe stop of the running task; every other command is
	// cancelled by the first. Nil: only ctx ends a command (in-process use).
	Signals <-chan os.Signal
	// PauseKey subscribes to the operator's pause key (Ctrl-Z) for an
	// interactive `thea run`; nil: /pause only (in-process use).
	PauseKey func() (<-chan os.Signal, func())
	// IsTerminal reports whether an output is a terminal (the live view);
	// nil asks the operating system about an *os.File.
	IsTerminal func(io.Writer) bool

	v    *viper.Viper
	stop []context.CancelFunc // ends what forwardInterrupts started
}

// Run executes the command line args and returns the exit code.
func (a *App) Run(ctx context.Context, args []string) int {
	root := a.newRootCmd()
	root.SetArgs(args)
	root.SetIn(a.Stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	defer func() {
		for _, cancel := range a.stop {
			cancel()
		}
	}()
	return exitCode(root.ExecuteContext(ctx), a.Stderr)
}

// newRootCmd builds the command tree. Adding a command is one file with a
// newXCmd constructor and one line here.
func (a *App) newRootCmd() *cobra.Command {
	a.v = viper.NewWithOptions(viper.ExperimentalBindStruct())
	root := &cobra.Command{
		Use:           "thea",
		Short:         "Thea: a declarative harness for embodied agents",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.forwardInterrupts(cmd)
			return a.readConfig(cmd)
		},
	}
	root.PersistentFlags().String("config", "", "config file (flags > THEA_* environment > config file > defaults)")
	root.AddCommand(
		a.newValidateCmd(),
		a.newSchemaCmd(),
		a.newRunCmd(),
		a.newContextCmd(),
		a.newSimCmd(),
		a.newInitCmd(),
		a.newServeCmd(),
		a.newMCPCmd(),
		a.newReportCmd(),
		a.newTestCmd(),
		a.newEvalCmd(),
		a.newEvaluatorCmd(),
	)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return root
}

// ownsInterrupts is the annotation of a command that reads App.Signals
// itself; any other command's context is cancelled by the first interrupt.
const ownsInterrupts = "thea/owns-interrupts"

func (a *App) forwardInterrupts(cmd *cobra.Command) {
	if a.Signals == nil || cmd.Annotations[ownsInterrupts] != "" {
		return
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	go func() {
		defer cancel()
		select {
		case <-a.Signals:
		case <-ctx.Done():
		}
	}()
	a.stop = append(a.stop, cancel)
	cmd.SetContext(ctx)
}

// readConfig binds the command's flags to viper with THEA_* environment
// variables and an optional config file, after flags are parsed. A command's
// own flags are keyed by its name, so `validate.format` is THEA_VALIDATE_FORMAT
// and `validate: {format: json}` in the config file, apart from
// `schema.format`; persistent flags keep their bare name (THEA_CONFIG).
func (a *App) readConfig(cmd *cobra.Command) error {
	a.v.SetEnvPrefix("THEA")
	a.v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	a.v.AutomaticEnv()
	var err error
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		err = errors.Join(err, a.v.BindPFlag(a.key(cmd, f.Name), f))
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		err = errors.Join(err, a.v.BindPFlag(f.Name, f))
	})
	if err != nil {
		return fmt.Errorf("binding flags: %w", err)
	}
	if file := a.v.GetString("config"); file != "" {
		a.v.SetConfigFile(file)
		if err := a.v.ReadInConfig(); err != nil {
			return usageError{fmt.Errorf("reading config %s: %w", file, err)}
		}
	}
	return nil
}

// usageError is a bad invocation: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// key is the configuration key of a command's own flag.
func (a *App) key(cmd *cobra.Command, flag string) string { return cmd.Name() + "." + flag }

// str reads a command's own setting (flag > environment > config > default).
func (a *App) str(cmd *cobra.Command, flag string) string { return a.v.GetString(a.key(cmd, flag)) }
