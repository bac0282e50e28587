package cli

import (
	"context"

	"github.com/thea-harness/thea/embodiments/sim"
)

// serveSim serves the simulator on the App's streams until input closes.
func serveSim(ctx context.Context, a *App, world string, seed uint64) error {
	return sim.Serve(ctx, sim.ServeOptions{WorldPath: world, Seed: seed, In: a.Stdin, Out: a.Stdout, ErrLog: a.Stderr})
}
