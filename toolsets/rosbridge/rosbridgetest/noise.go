package rosbridgetest

import (
	"math"
	"math/rand/v2"
)

// ServiceResetWorld puts the TurtleBot back where it started (Gazebo's
// name and type for it): at the dock, undocked, its battery full as at
// start, no goal driving, the sensor noise drawn again from its seed. A
// live robot's reset step (episodes.reset) calls it between episodes.
const (
	ServiceResetWorld = "/reset_world"
	TypeEmpty         = "std_srvs/srv/Empty"
)

// noise draws the sensors' Gaussian noise (Options.Noise) from a seeded
// stream (Options.Seed). Which draw lands in which message depends on when
// messages are published, so two runs at one seed see different values of
// the same spread: what a replay against a real robot sees.
type noise struct {
	sigma float64
	seed  uint64
	rng   *rand.Rand
}

func newNoise(sigma float64, seed uint64) *noise {
	return &noise{sigma: sigma, seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// reseed starts the stream again from its seed.
func (n *noise) reseed() { n.rng = rand.New(rand.NewPCG(n.seed, n.seed^0x9e3779b97f4a7c15)) }

// add is v with noise; v itself when the noise is off or v is not finite.
func (n *noise) add(v float64) float64 {
	if n == nil || n.sigma <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	return v + n.rng.NormFloat64()*n.sigma
}

// noisyWorld is w as the sensors report it: its position with noise.
func (n *noise) noisyWorld(w world) world {
	w.x, w.y = n.add(w.x), n.add(w.y)
	return w
}

// resetWorldService is ServiceResetWorld. Called with Server.mu held.
func resetWorldService(s *Server, _ map[string]any) (any, error) {
	// A goal driving now ends canceled, whatever the faults say: the
	// world it drove in is gone.
	for _, g := range s.w.goals {
		if !g.ghost {
			s.finishGoal(g, 5, "")
		}
	}
	s.w = newWorld()
	s.noise.reseed()
	return map[string]any{}, nil
}
