package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/policies"
)

// Execute runs the thea command line and returns the process exit code:
// 0 success, 1 a failed check or task, 2 a usage error.
func Execute(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	return NewApp(stdin, stdout, stderr).Run(ctx, args)
}

// NewApp wires the command line with this build's components.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *App {
	return &App{Stdin: stdin, Stdout: stdout, Stderr: stderr, Profiles: embodiments.Profiles(), RuleTests: policies.RunRuleTestsSummary}
}

// Main runs the command line as the thea process: its standard streams,
// SIGTERM ending every command, and SIGINT delivered to App.Signals (so
// Ctrl-C stops a task of `thea run` rather than the session).
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	interrupts := make(chan os.Signal, 4)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	a := NewApp(os.Stdin, os.Stdout, os.Stderr)
	a.Signals = interrupts
	a.PauseKey = pauseKey
	return a.Run(ctx, args)
}

// exitError carries an exit code out of a command; its message, if any, has
// already been printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// exitCode maps a command's error to the process exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintf(stderr, "thea: %v\n", err)
	return 2
}
