package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/embodiments/sim"
)

// serveSim serves the simulator on the App's streams until input closes.
func serveSim(ctx context.Context, a *App, world string, seed uint64) error {
	return sim.Serve(ctx, sim.ServeOptions{WorldPath: world, Seed: seed, In: a.Stdin, Out: a.Stdout, ErrLog: a.Stderr})
}

// fakeKinds are the toolset kinds with a fake back-end. Each fake is test
// code and a program of its own, thea-sim-<kind> (cmd/thea-sim-<kind>), so
// this binary links none of them:
//
//	thea sim rosbridge [-robot arm] [-addr HOST:PORT] [-nav-speed M/S] [fault flags]
//
// runs thea-sim-rosbridge, the fake TurtleBot with Nav2 behind rosbridge of
// the ROS example and make demo-ros (with -robot arm a UR-class tabletop
// arm); it prints its ws:// URL.
func fakeKinds() []string { return []string{"rosbridge"} }

// fakeStopGrace is how long a fake has to end after its interrupt, when
// the command is cancelled, before it is killed.
const fakeStopGrace = 10 * time.Second

// runFake is `thea sim <kind> [args]`: the fake back-end of a toolset kind
// for offline demos, e.g. the ROS example's fake TurtleBot behind
// rosbridge, run as its own program on thea's streams.
func (a *App) runFake(cmd *cobra.Command, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		return cmd.Help()
	}
	kind := args[0]
	if !slices.Contains(fakeKinds(), kind) {
		return fmt.Errorf("thea sim: unknown command %q (serve, or the fake of a toolset kind: %s)", kind, strings.Join(fakeKinds(), ", "))
	}
	path, err := fakeProgram(kind)
	if err != nil {
		return err
	}
	c := exec.CommandContext(cmd.Context(), path, args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = a.Stdin, a.Stdout, a.Stderr
	// Cancelled (SIGTERM, Ctrl-C): the fake closes its server on an
	// interrupt; one that does not is killed after the grace.
	c.Cancel = func() error { return c.Process.Signal(os.Interrupt) }
	c.WaitDelay = fakeStopGrace
	err = c.Run()
	if err != nil && cmd.Context().Err() != nil && c.ProcessState != nil && c.ProcessState.Success() {
		return nil // stopped as asked (SIGTERM, Ctrl-C), and it closed cleanly
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("thea sim %s: %s", kind, exit.ProcessState)
	}
	if err != nil {
		return fmt.Errorf("thea sim %s: running %s: %w", kind, path, err)
	}
	return nil
}

// fakeProgram finds thea-sim-<kind>: beside the running thea first (make
// build puts both in bin/), then on PATH.
func fakeProgram(kind string) (string, error) {
	name := "thea-sim-" + kind
	// An executable that cannot name itself still finds the fake on PATH.
	if exe, err := os.Executable(); err == nil {
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(exe), name)); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("thea sim %s runs the program %s, which is neither beside thea nor on PATH: build it with `go build -o bin/ ./cmd/%s` (make build does): %w", kind, name, name, err)
	}
	return p, nil
}
