package scenegraph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// mutator drives a Graph through random changes by every public path:
// observations (pose, states, detections that appear, move, vanish, come
// with ids and several cameras, the held object, images), the effects of
// calls (each op, a call applied twice, an invalid op), the clock passing
// (staleness), and the read-only look-ups between them. It uses only the
// public API, so a transcript of it can be taken from any version of the
// package.
type mutator struct {
	rng  *rand.Rand
	g    *Graph
	turn int
	// calls numbers the call keys.
	calls int
	// made are names the flood of new objects used, to see them again.
	made []string
	// odd: positions now and then NaN, infinite or -0.
	odd bool
}

var (
	randNames   = []string{"mug", "Mug", "cup", "plate", "box 1", "front_door", "top_drawer", "table", "robot", "Kelvin \u212a", "ſign"}
	randTargets = []string{"table", "shelf", "top_drawer", "floor", "mug", "place:table", "obj:mug", "front_door"}
	randCameras = []string{"", "head", "wrist", "rear"}
	randClasses = []string{"", "", "", "mug", "cup", "Mug"}
	randRooms   = []string{"", "", "kitchen", "kitchen", "hall"}
	randStates  = []string{"open", "closed", "on", "off", ""}
	randRels    = []string{"", "on", "in", "near"}
)

func newMutator(seed uint64, staleAfter int) *mutator {
	return &mutator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), g: New(staleAfter, WithFrame([]string{"", "map", "odom"}[seed%3])),
		odd: seed%4 == 3}
}

func pick[T any](m *mutator, xs []T) T { return xs[m.rng.IntN(len(xs))] }

// coord is a position near one of a few spots (so detections match known
// objects, or just miss them); with odd, now and then a value no back-end
// should send.
func (m *mutator) coord() float64 {
	switch m.rng.IntN(60) {
	case 0, 1, 2:
		if !m.odd {
			break
		}
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}[m.rng.IntN(4)]
	}
	return float64(m.rng.IntN(4))*1.5 + m.rng.Float64()*0.3 - 0.15
}

func (m *mutator) point() *world.Point {
	if m.rng.IntN(3) == 0 {
		return nil
	}
	return &world.Point{X: m.coord(), Y: m.coord()}
}

func (m *mutator) name() string {
	if len(m.made) > 0 && m.rng.IntN(4) == 0 {
		return pick(m, m.made)
	}
	return pick(m, randNames)
}

func (m *mutator) detection() world.Detection {
	d := world.Detection{Name: m.name(), Class: pick(m, randClasses), Camera: pick(m, randCameras),
		Room: pick(m, randRooms), Position: m.point(), Visible: true}
	if m.rng.IntN(8) == 0 {
		d.Name = ""
	}
	if m.rng.IntN(5) == 0 {
		d.ID = fmt.Sprintf("track-%d", m.rng.IntN(4))
	}
	if m.rng.IntN(3) > 0 {
		d.Relation, d.Target = pick(m, randRels), pick(m, randTargets)
	}
	if m.rng.IntN(3) == 0 {
		d.DistanceM = m.rng.Float64() * 5
	}
	return d
}

func (m *mutator) observation() *world.Observation {
	obs := &world.Observation{}
	if m.rng.IntN(4) > 0 {
		obs.Pose = &world.Pose{X: m.coord(), Y: m.coord(), ThetaDeg: float64(m.rng.IntN(360)) - 90.5, Room: pick(m, randRooms)}
	}
	if m.rng.IntN(3) == 0 {
		obs.State = map[string]any{}
		for _, group := range []string{"drawers", "doors", "lights"} {
			if m.rng.IntN(2) == 0 {
				continue
			}
			st := map[string]any{}
			for range 1 + m.rng.IntN(2) {
				st[m.name()] = pick(m, randStates)
			}
			obs.State[group] = st
		}
		obs.State["battery"] = 0.5
	}
	for range m.rng.IntN(6) {
		d := m.detection()
		obs.Detections = append(obs.Detections, d)
		if m.rng.IntN(3) == 0 {
			// The same object seen by another camera, a little off.
			d.Camera = pick(m, randCameras)
			if d.Position != nil {
				d.Position = &world.Point{X: d.Position.X + 0.1, Y: d.Position.Y}
			}
			obs.Detections = append(obs.Detections, d)
		}
	}
	if m.rng.IntN(100) == 0 {
		// A flood of new names: the bounded Brief hides most of them.
		for i := range 5 + m.rng.IntN(30) {
			n := fmt.Sprintf("item%d_%d", m.turn, i)
			m.made = append(m.made, n)
			obs.Detections = append(obs.Detections, world.Detection{Name: n, Camera: "head", Relation: "on", Target: "shelf",
				Position: &world.Point{X: float64(i % 7), Y: m.rng.Float64()}})
		}
	}
	switch m.rng.IntN(4) {
	case 0:
		obs.Held = m.name()
	case 1:
		// Sent empty: holding nothing (case 3 leaves held out: unknown).
		obs.Held = ""
		obs.SetKnown(world.FieldHeld)
	case 2:
		// What the robot holds, seen again (by a pose-less observation).
		if hs, _ := m.g.Relations(RobotRef, "held"); len(hs) > 0 {
			obs.Held, obs.Pose = hs[0].Target, nil
		}
	}
	if m.rng.IntN(4) == 0 {
		obs.Images = []world.Image{{Camera: pick(m, randCameras[1:]), MIME: "image/png", Data: []byte{byte(m.turn)}}}
	}
	return obs
}

func (m *mutator) ops() []Op {
	var ops []Op
	for range 1 + m.rng.IntN(3) {
		var op Op
		switch m.rng.IntN(8) {
		case 0:
			op = Op{Op: schema.OpSetHolding, To: m.name()}
		case 1:
			op = Op{Op: schema.OpClearHolding}
		case 2:
			op = Op{Op: schema.OpSetNear, To: pick(m, randTargets)}
		case 3:
			op = Op{Op: schema.OpClearNear}
		case 4:
			op = Op{Op: schema.OpSetState, Of: m.name(), To: pick(m, randStates[:4])}
		case 5:
			op = Op{Op: schema.OpAddRelation, Of: m.name(), Kind: pick(m, randRels[1:]), To: pick(m, randTargets)}
		case 6:
			op = Op{Op: schema.OpRemoveRelation, Of: m.name(), Kind: pick(m, randRels)}
		case 7:
			// Missing a value: the whole call applies nothing.
			op = Op{Op: schema.OpSetState, Of: m.name()}
		}
		op.Path = "tools.t.effects"
		ops = append(ops, op)
	}
	return ops
}

// step makes one random change and says what it was.
func (m *mutator) step() string {
	g := m.g
	switch k := m.rng.IntN(20); {
	case k < 8:
		turn := m.turn + m.rng.IntN(2)
		if m.rng.IntN(10) == 0 {
			turn = m.turn - 2 // a late observation
		}
		m.turn = max(m.turn, turn)
		g.Update(m.observation(), turn, pick(m, []string{"observe", "look"}))
		return fmt.Sprintf("Update(turn %d)", turn)
	case k < 9:
		g.Update(nil, m.turn, "observe")
		return "Update(nil)"
	case k < 13 && m.rng.IntN(3) == 0:
		// A physical call no verdict confirmed: its names read unconfirmed.
		env := &schema.CheckEnv{Args: map[string]any{"object_name": m.name()}}
		refs := g.MarkUnconfirmed(m.turn, nil, env)
		return fmt.Sprintf("MarkUnconfirmed(%v) = %v", env.Args, refs)
	case k < 14:
		key := fmt.Sprintf("%d/c%d", m.turn, m.calls)
		if m.rng.IntN(6) > 0 {
			m.calls++
		}
		ops := m.ops()
		src := Source{Kind: "call", Tool: pick(m, []string{"pick_up", "place", "navigate_to"}), CallID: key, Turn: m.turn}
		lines, err := g.Apply(key, src, ops)
		return fmt.Sprintf("Apply(%s, %+v) = %q, %v", key, ops, lines, err)
	case k < 17:
		m.turn += m.rng.IntN(4)
		g.Advance(m.turn)
		return fmt.Sprintf("Advance(%d)", m.turn)
	default:
		// Read-only look-ups: they must not disturb what the Brief shows.
		ref := pick(m, g.Refs())
		_ = g.Lookup(strings.ToLower(m.name()))
		_, _ = g.Relations(ref, pick(m, []string{"", "held", "on"}))
		_, _ = g.Describe(ref)
		_, _ = g.View(ref)
		_, _ = g.Get(ref)
		return "look-ups of " + ref
	}
}

// limits are random Brief limits, the bounded path (hidden refs) included.
func (m *mutator) limits() BriefLimits {
	return BriefLimits{Detailed: pick(m, []int{0, 1, 2, 3, 5, 8, 20}), MaxRefs: pick(m, []int{0, 1, 2, 3, 5, 10, 40})}
}
