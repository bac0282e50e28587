package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/embodiments/sim"
)

// serveSim serves the simulator on the App's streams until input closes.
func serveSim(ctx context.Context, a *App, world string, seed uint64) error {
	return sim.Serve(ctx, sim.ServeOptions{WorldPath: world, Seed: seed, In: a.Stdin, Out: a.Stdout, ErrLog: a.Stderr})
}

// runFake is `thea sim <kind> [args]`: the fake back-end a toolset kind
// offers for offline demos (engine.ToolsetKind.Fake), e.g. the ROS
// example's fake TurtleBot behind rosbridge. The kinds own their fakes, so
// this command names none.
func (a *App) runFake(cmd *cobra.Command, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		return cmd.Help()
	}
	c, err := a.components(slog.New(slog.DiscardHandler), nil)
	if err != nil {
		return err
	}
	var have []string
	for _, k := range c.ToolsetKinds() {
		if k.Fake == nil {
			continue
		}
		if k.Name == args[0] {
			if code := k.Fake.Main(cmd.Context(), args[1:], a.Stdin, a.Stdout, a.Stderr); code != 0 {
				return fmt.Errorf("thea sim %s: exit status %d", k.Name, code)
			}
			return nil
		}
		have = append(have, k.Name)
	}
	return fmt.Errorf("thea sim: unknown command %q (serve, or the fake of a toolset kind: %s)", args[0], strings.Join(have, ", "))
}
