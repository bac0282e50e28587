package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/embodiments/sim"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// serveSim serves the simulator on the App's streams until input closes.
func serveSim(ctx context.Context, a *App, world string, seed uint64) error {
	return sim.Serve(ctx, sim.ServeOptions{WorldPath: world, Seed: seed, In: a.Stdin, Out: a.Stdout, ErrLog: a.Stderr})
}

// fake is a toolset kind's fake back-end as a program: main runs it with its
// command-line arguments and the process's streams and returns its exit
// status.
type fake struct {
	kind string
	main func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// fakes are the kinds' fake back-ends this binary serves. They are test
// fakes, so this wiring names them, not the kinds: the components an
// embedding program links carry none.
func fakes() []fake {
	return []fake{
		// The fake TurtleBot with Nav2 behind rosbridge (WebSocket) of the ROS
		// example and make demo-ros, or with -robot arm a UR-class tabletop
		// arm; it prints its ws:// URL.
		// thea sim rosbridge [-robot arm] [-addr HOST:PORT] [-nav-speed M/S] [fault flags].
		{kind: "rosbridge", main: rosbridgetest.Main},
	}
}

// runFake is `thea sim <kind> [args]`: the fake back-end of a toolset kind
// for offline demos, e.g. the ROS example's fake TurtleBot behind
// rosbridge.
func (a *App) runFake(cmd *cobra.Command, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		return cmd.Help()
	}
	var have []string
	for _, f := range fakes() {
		if f.kind == args[0] {
			if code := f.main(cmd.Context(), args[1:], a.Stdin, a.Stdout, a.Stderr); code != 0 {
				return fmt.Errorf("thea sim %s: exit status %d", f.kind, code)
			}
			return nil
		}
		have = append(have, f.kind)
	}
	return fmt.Errorf("thea sim: unknown command %q (serve, or the fake of a toolset kind: %s)", args[0], strings.Join(have, ", "))
}
