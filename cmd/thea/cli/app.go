package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/thea-harness/thea/schema"
)

// App is the command line's wiring: its streams and the pieces other
// packages provide. There is no global state; tests build their own App.
type App struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Profiles are the bundled embodiment profiles a CUE spec may name.
	Profiles map[string]string
	// RuleTests runs a spec's rule tests; validate calls it when non-nil.
	RuleTests func(ctx context.Context, s *schema.Spec) []schema.Diagnostic

	v *viper.Viper
}

// Run executes the command line args and returns the exit code.
func (a *App) Run(ctx context.Context, args []string) int {
	root := a.newRootCmd()
	root.SetArgs(args)
	root.SetIn(a.Stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	return exitCode(root.ExecuteContext(ctx), a.Stderr)
}

// newRootCmd builds the command tree. Adding a command is one file with a
// newXCmd constructor and one line here.
func (a *App) newRootCmd() *cobra.Command {
	a.v = viper.NewWithOptions(viper.ExperimentalBindStruct())
	root := &cobra.Command{
		Use:           "thea",
		Short:         "Thea: a declarative harness for embodied agents",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.readConfig(cmd)
		},
	}
	root.PersistentFlags().String("config", "", "config file (flags > THEA_* environment > config file > defaults)")
	root.AddCommand(
		a.newValidateCmd(),
		a.newSchemaCmd(),
	)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return root
}

// readConfig binds the command's flags to viper with THEA_* environment
// variables and an optional config file, after flags are parsed.
func (a *App) readConfig(cmd *cobra.Command) error {
	a.v.SetEnvPrefix("THEA")
	a.v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	a.v.AutomaticEnv()
	if err := a.v.BindPFlags(cmd.Flags()); err != nil {
		return fmt.Errorf("binding flags: %w", err)
	}
	if err := a.v.BindPFlags(cmd.InheritedFlags()); err != nil {
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
