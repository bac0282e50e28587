package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/embodiments/sim"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// serveSim serves the simulator on the App's streams until input closes.
func serveSim(ctx context.Context, a *App, world string, seed uint64) error {
	return sim.Serve(ctx, sim.ServeOptions{WorldPath: world, Seed: seed, In: a.Stdin, Out: a.Stdout, ErrLog: a.Stderr})
}

// newSimRosbridgeCmd: `thea sim rosbridge` serves a fake TurtleBot with
// Nav2 behind the rosbridge v2 protocol (package rosbridgetest), for the
// ROS example and `make demo-ros`. It prints its ws:// URL and serves until
// interrupted. Hidden: it is a test double, not a simulator of record.
func (a *App) newSimRosbridgeCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "rosbridge [-addr HOST:PORT] [-nav-speed M/S] [fault flags]",
		Short:              "Serve a fake TurtleBot behind rosbridge (WebSocket)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := rosbridgetest.Main(cmd.Context(), args, a.Stdin, a.Stdout, a.Stderr); code != 0 {
				return fmt.Errorf("thea sim rosbridge: exit status %d", code)
			}
			return nil
		},
	}
}
