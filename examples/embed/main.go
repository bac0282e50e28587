// Command embed runs one task of a robot through Thea's Go API, the way a
// program that embeds Thea does: one wiring call builds the session's
// components and collaborators, the spec is validated against them, the
// task's events stream back as they happen, and Close releases the back-end.
//
//	go run ./examples/embed examples/embed/spec.yaml "Fetch the mug"
//
// The spec's toolset runs "thea sim WORLD", and "thea" is this program (the
// mcp kind runs its own executable for that name), so asked for "sim" it
// serves the bundled household simulator over stdio.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/embodiments/sim"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "sim" {
		// The robot's back-end: the simulator, seeded so a run repeats.
		if err := sim.Serve(ctx, sim.ServeOptions{WorldPath: args[1], Seed: 7, In: stdin, Out: stdout, ErrLog: stderr}); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: embed SPEC INSTRUCTION")
		return 2
	}
	if err := runTask(ctx, args[0], args[1], stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "embed:", err)
		return 1
	}
	return 0
}

// runTask builds a session from the spec, runs one task, prints its events
// and closes the session.
func runTask(ctx context.Context, specPath, instruction string, stdout, stderr io.Writer) (err error) {
	// The one wiring call: this build's components (stages, toolset kinds,
	// model providers, hook actions, user channels) with the hook policy,
	// the skill loader and the profile renderer every session needs.
	opts, err := components.Session(components.Options{
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	// Validate the spec against exactly those components.
	spec, diags := schema.Load([]string{specPath}, schema.LoadOptions{
		Profiles: embodiments.Profiles(), Descriptors: opts.Components.Descriptors(),
	})
	if spec == nil {
		return fmt.Errorf("%s: %w", specPath, diagnostics(diags))
	}
	h, err := engine.New(ctx, spec, opts)
	if err != nil {
		return fmt.Errorf("starting the session: %w", err)
	}
	// Close stops the simulator subprocess (and anything in opts.Owned).
	defer func() { err = errors.Join(err, h.Close()) }()

	// Every event of the task, as it happens; the last is the done event.
	// Text from the model or the back-end is printed quoted (%q), so an
	// escape code in it cannot drive the terminal.
	for ev := range h.RunStream(ctx, instruction) {
		switch ev.Kind {
		case runlog.EventToolCall:
			fmt.Fprintf(stdout, "call    %s %v\n", ev.Tool, ev.Args)
		case runlog.EventToolResult:
			if ev.Result.Success {
				fmt.Fprintf(stdout, "result  %s ok\n", ev.Tool)
			} else {
				fmt.Fprintf(stdout, "result  %s failed: %q\n", ev.Tool, ev.Result.Reason)
			}
		case runlog.EventEvaluation:
			fmt.Fprintf(stdout, "verdict %s %s (%s)\n", ev.Tool, ev.Verdict.Status, ev.Verdict.Source)
		case runlog.EventDone:
			fmt.Fprintf(stdout, "done    %s after %d turns: %q\n", ev.Done.Reason, ev.Done.Turns, ev.Done.Text)
		}
	}
	return nil
}

// diagnostics joins a failed load's diagnostics, each at its position.
func diagnostics(diags []schema.Diagnostic) error {
	errs := make([]error, len(diags))
	for i, d := range diags {
		errs[i] = errors.New(d.String())
	}
	return errors.Join(errs...)
}
