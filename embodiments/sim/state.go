package sim

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/thea-harness/thea/internal/simtools"
)

// simulator is one server's private, mutable copy of a world. Tool calls may
// arrive concurrently (mcp-go serves them from a worker pool), so every call
// holds mu for its whole duration: the robot does one thing at a time.
type simulator struct {
	mu   sync.Mutex
	w    *World
	grid *grid
	rng  *rand.Rand
	// detect draws whether each seen object is detected: a stream of its
	// own, so observing more or less often never shifts the outcomes of
	// the manipulation and navigation calls.
	detect  *rand.Rand
	pose    Pose
	held    string
	objects map[string]*placement
	open    map[string]bool // container name → open
	runs    int
}

// placement is where an object currently is; Relation "held" while in the
// gripper.
type placement struct {
	Relation, Target string
	Position         Vec
}

func newSimulator(w *World, seed uint64) *simulator {
	s := &simulator{w: w, grid: newGrid(w), pose: w.Robot.Start,
		// PCG sources per server: outcomes depend only on the seed and the
		// sequence of calls.
		rng:     newPCG(seed, 1),
		detect:  newPCG(seed, 2),
		objects: map[string]*placement{}, open: map[string]bool{}}
	for _, o := range w.Objects {
		s.objects[o.Name] = &placement{Relation: o.Relation, Target: o.Target, Position: o.Position}
	}
	for _, f := range w.Furniture {
		for _, c := range f.Containers {
			s.open[c.Name] = c.Open
		}
	}
	return s
}

// newPCG is one of the seed's independent streams of draws. The seed is mixed
// (splitmix64) into the PCG's state first: PCGs seeded with neighbouring
// small numbers (seeds 1, 2, 3… of an evaluation) start with correlated
// draws, which made the first seeds of an evaluation fail together.
func newPCG(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix64(seed^stream<<56), splitmix64(seed+stream*0x9e3779b97f4a7c15)))
}

// splitmix64 is Steele, Lea and Flood's 64-bit finaliser: every input bit
// affects every output bit.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// nextRun allocates the run id of a motion or manipulation call.
func (s *simulator) nextRun() string {
	s.runs++
	return simtools.RunID(s.runs)
}

// succeeds draws the outcome of a tool whose preconditions hold. A draw is
// made even at probability 1 so changing a probability never shifts later
// outcomes.
func (s *simulator) succeeds(tool string) bool {
	return s.rng.Float64() < s.w.SuccessProbability[tool]
}

// detected draws whether a seen object is reported. A draw is made even at
// probability 1, like succeeds.
func (s *simulator) detected() bool {
	return s.detect.Float64() < s.w.DetectionProbability
}

// visible reports whether camera c sees point p: within range and field of
// view, and no wall between. An object in a closed container is never seen.
func (s *simulator) visible(c Camera, p Vec) bool {
	d := s.pose.Pos.Dist(p)
	if d > c.RangeM {
		return false
	}
	if d > 1e-6 && math.Abs(normDeg(bearingDeg(s.pose.Pos, p)-s.pose.ThetaDeg)) > c.FovDeg/2+1e-9 {
		return false
	}
	for _, wall := range s.w.Walls {
		if segmentsCross(s.pose.Pos, p, wall.A, wall.B) {
			return false
		}
	}
	return true
}

// objectSeenBy reports whether camera c sees an object (not held).
func (s *simulator) objectSeenBy(c Camera, name string) bool {
	pl := s.objects[name]
	if s.held == name || (pl.Relation == "in" && !s.open[pl.Target]) {
		return false
	}
	return s.visible(c, pl.Position)
}

// seenByAny reports whether any camera sees the point.
func (s *simulator) seenByAny(p Vec) bool {
	for _, c := range s.w.Robot.Cameras {
		if s.visible(c, p) {
			return true
		}
	}
	return false
}

// furnitureSeen reports whether any camera sees the part of a footprint
// nearest the robot.
func (s *simulator) furnitureSeen(f *Furniture) bool {
	return s.seenByAny(f.Footprint.Nearest(s.pose.Pos))
}

// maxClearance caps every clearance reading, like a real range sensor.
const maxClearance = 5.0

// clearance is how far the body can translate in a direction relative to its
// heading (0 forward, 90 left) before touching a wall or footprint: a swept
// disc, so a corner off the centre line counts.
func (s *simulator) clearance(relDeg float64) float64 {
	return sweep(s.pose.Pos, heading(s.pose.ThetaDeg+relDeg), maxClearance, s.w.free)
}

// nearestObstacle names what the robot is closest to, for contact reports.
func (s *simulator) nearestObstacle() string {
	best, name := math.Inf(1), "a wall"
	for _, wall := range s.w.Walls {
		best = math.Min(best, wall.Dist(s.pose.Pos))
	}
	for _, f := range s.w.Furniture {
		if d := f.Footprint.Dist(s.pose.Pos); d < best {
			best, name = d, "the "+f.Name
		}
	}
	return name
}

// round3 keeps reported distances to the millimetre so readings are stable
// and readable.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
