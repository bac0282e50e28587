package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// EvaluatorCommand is the hidden command that makes this binary the spec
// evaluator (schema.ServeEvaluation). A test binary that runs the command
// line in process routes it, as it routes `sim`, in its TestMain.
const EvaluatorCommand = "evaluate-spec"

// newEvaluatorCmd is `thea evaluate-spec`: the child process in which every
// command that loads a spec evaluates it first, within the bounds of
// schema.MaxEvalHeap and schema.MaxEvalTime.
func (a *App) newEvaluatorCmd() *cobra.Command {
	return &cobra.Command{
		Use:    EvaluatorCommand,
		Short:  "Evaluate a spec within bounds (started by the commands that load one)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			c, err := a.components(nil, nil)
			if err != nil {
				return err
			}
			// The same options as loadOptions, so the evaluation is the one
			// the parent then repeats.
			if code := schema.ServeEvaluation(a.Stdin, a.Stdout, schema.LoadOptions{Profiles: a.Profiles, Descriptors: c.Descriptors()}); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
}

// loadOptions are the options of every command's schema.Load: this build's
// components and profiles, and the evaluator that bounds the evaluation.
func (a *App) loadOptions(ctx context.Context, c *engine.Components) (schema.LoadOptions, error) {
	self, err := os.Executable()
	if err != nil {
		return schema.LoadOptions{}, fmt.Errorf("finding this binary to evaluate the spec in: %w", err)
	}
	return schema.LoadOptions{Profiles: a.Profiles, Descriptors: c.Descriptors(), Context: ctx, Evaluator: []string{self, EvaluatorCommand}}, nil
}
