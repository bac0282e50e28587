package scenegraph

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/thea-harness/thea/world"
)

// Update merges one Observation taken at turn by tool: the robot's pose and
// what it holds, the states of named things (state.<group>: name → state),
// every detection, and the last image of each camera. Newer evidence wins
// over older, whatever its source, so the graph states the present.
func (g *Graph) Update(obs *world.Observation, turn int, tool string) {
	g.turn = max(g.turn, turn)
	if obs == nil {
		return
	}
	src := Source{Kind: "observation", Tool: tool, Turn: turn}
	for _, img := range obs.Images {
		if img.Camera != "" && len(img.Data) > 0 {
			g.images[img.Camera] = storedImage{img: img, turn: turn}
		}
	}
	g.updateRobot(obs, src)
	g.updateStates(obs.State, src)
	g.updateDetections(g.inGraphFrame(obs.Detections), src)
	// An observation without held says nothing about the gripper: the last
	// confirmed fact stands, with its age.
	if obs.Known(world.FieldHeld) {
		g.updateHeld(obs.Held, src)
	}
}

func (g *Graph) updateRobot(obs *world.Observation, src Source) {
	if obs.Pose == nil {
		return
	}
	r := g.nodes[RobotRef]
	r.pos = setPoint(r.pos, obs.Pose.X, obs.Pose.Y)
	r.thetaDeg, r.room, r.seen = obs.Pose.ThetaDeg, obs.Pose.Room, src
	g.touch(r)
	// Having driven away, the robot is no longer near what it drove to.
	g.drop(r, func(x *Relation) bool {
		if x.Subject != RobotRef || x.Kind != RelNear {
			return false
		}
		if x.anchor == nil {
			x.anchor = &world.Point{X: r.pos.X, Y: r.pos.Y}
		}
		return dist(*x.anchor, *r.pos) > nearDriftM
	})
}

// updateStates reads the states of named things the observation reports:
// every state.<group> that maps names to strings (state.drawers: {top_drawer:
// open}, state.doors: {front_door: closed}). A known object, container or
// place takes the state; an unknown name becomes a container under drawers
// and an object under any other group. Other values of state (a number, a
// nested object) are for rules only.
func (g *Graph) updateStates(state map[string]any, src Source) {
	groups := make([]string, 0, len(state))
	for k, v := range state {
		if m, ok := v.(map[string]any); ok && len(m) > 0 && allStrings(m) {
			groups = append(groups, k)
		}
	}
	sort.Strings(groups)
	for _, group := range groups {
		states := state[group].(map[string]any)
		names := make([]string, 0, len(states))
		for n := range states {
			names = append(names, n)
		}
		sort.Strings(names)
		kind := kindOfGroup(group)
		for _, name := range names {
			st := states[name].(string)
			if name == "" || st == "" {
				continue
			}
			n := g.stateful(name, kind, src)
			n.state, n.stateSrc = st, src
			// A thing a camera saw keeps its sighting's stamp: its position
			// and room are that sighting's, not this report's (the state
			// carries its own stamp).
			if !n.sighted() {
				n.seen = src
			}
			g.touch(n)
			g.confirm(n)
		}
	}
}

func allStrings(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// stateful returns the thing a state belongs to (see thing): a place
// taking a state is a container (it holds things and has a state); an
// unknown name is a new node of kind (an object or a container).
func (g *Graph) stateful(name string, kind NodeKind, src Source) *node {
	n := g.resolve(name, kind, "", src)
	if n.kind == KindPlace {
		n.kind = KindContainer
		g.touch(n)
	}
	return n
}

// sighting is one object as one observation reports it: the detections of
// all cameras that saw it.
type sighting struct {
	d       world.Detection
	cameras []string
}

// updateDetections clusters the detections into sightings (one object seen
// by two cameras is one sighting), then matches each to a known object by
// name, class, position and support, or makes a new ref. Two objects of one
// name in one observation are two refs.
func (g *Graph) updateDetections(dets []world.Detection, src Source) {
	// The sightings reuse the last observation's, cameras slices included.
	ss := g.sightings[:0]
	for _, d := range dets {
		if d.Name == "" {
			continue
		}
		if s := sameSighting(ss, d); s != nil {
			s.cameras = appendCamera(s.cameras, d.Camera)
			continue
		}
		if len(ss) < cap(ss) {
			ss = ss[:len(ss)+1]
		} else {
			ss = append(ss, sighting{})
		}
		s := &ss[len(ss)-1]
		s.d, s.cameras = d, append(s.cameras[:0], d.Camera)
	}
	// The objects matched in this pass are marked with its number.
	g.pass++
	for i := range ss {
		s := &ss[i]
		n := g.match(s.d, src)
		made := n == nil
		if made {
			n = g.add(&node{ref: g.newRef(refPrefix(KindObject), s.d.Name), name: s.d.Name, kind: KindObject})
		}
		if n.kind == KindPlace {
			// A place a camera sees is a thing with a position.
			n.kind = KindObject
		}
		n.matched = g.pass
		g.confirm(n)
		d := s.d
		if d.ID != "" && n.id == "" {
			n.id = d.ID
			g.byID[d.ID] = n
		}
		n.class, n.room = keep(n.class, d.Class), keep(n.room, d.Room)
		if d.Position != nil {
			n.pos = setPoint(n.pos, d.Position.X, d.Position.Y)
		}
		n.distM = d.DistanceM
		ssrc := src
		ssrc.Camera = joinCameras(s.cameras, n.seen.Camera)
		n.seen = ssrc
		for _, c := range s.cameras {
			if c != "" {
				n.views[c] = src.Turn
			}
		}
		g.touch(n)
		if d.Relation != "" && d.Target != "" {
			t := g.place(d.Target, d.Room, ssrc)
			if made {
				g.addSupport(n.ref, d.Relation, t.ref, ssrc)
			} else {
				g.setSupport(n.ref, d.Relation, t.ref, ssrc)
			}
		}
	}
	// Keep the buffers for the next observation, not this one's values.
	for i := range ss {
		ss[i].d = world.Detection{}
		clear(ss[i].cameras)
	}
	g.sightings = ss
}

// setPoint sets a node's position in place (no one else holds the
// pointer), or makes it.
func setPoint(p *world.Point, x, y float64) *world.Point {
	if p == nil {
		return &world.Point{X: x, Y: y}
	}
	p.X, p.Y = x, y
	return p
}

// joinCameras is strings.Join(cs, "+"), prev itself when it is that: an
// object seen again by the same cameras costs no new string.
func joinCameras(cs []string, prev string) string {
	rest := prev
	for i, c := range cs {
		if i > 0 {
			if !strings.HasPrefix(rest, "+") {
				return strings.Join(cs, "+")
			}
			rest = rest[1:]
		}
		if !strings.HasPrefix(rest, c) {
			return strings.Join(cs, "+")
		}
		rest = rest[len(c):]
	}
	if rest != "" {
		return strings.Join(cs, "+")
	}
	return prev
}

func appendCamera(cs []string, c string) []string {
	if slices.Contains(cs, c) {
		return cs
	}
	return append(cs, c)
}

// sameSighting finds the sighting d belongs to: the same id when both have
// one; else same name and class, and the same position (within the match
// radius) or, without positions, the same support.
func sameSighting(ss []sighting, d world.Detection) *sighting {
	for i := range ss {
		s := &ss[i]
		o := s.d
		if o.ID != "" && d.ID != "" {
			if o.ID == d.ID {
				return s
			}
			continue
		}
		// One camera reporting two of a name saw two objects.
		if o.Name != d.Name || o.Class != d.Class || d.Camera != "" && slices.Contains(s.cameras, d.Camera) {
			continue
		}
		if o.Position != nil && d.Position != nil {
			if dist(*o.Position, *d.Position) <= matchRadiusM {
				return s
			}
			continue
		}
		if o.Relation == d.Relation && o.Target == d.Target && o.Room == d.Room {
			return s
		}
	}
	return nil
}

// match finds the known object a detection is. A detection with the
// back-end's id is the object of that id; otherwise (and for an id not seen
// yet) a candidate is a thing of the same name, whatever group first
// reported it (see thing), with a class that does not conflict, no
// other id, and is not matched yet in this observation (this pass); then
// the one a state group of this observation (src) reported, or the closest by position, or one whose support agrees, or the one the
// robot holds, or one a confirmed call moved (its position unknown since),
// or one known only from a state report (never seen, nowhere), or, when neither positions nor a support can be compared, one in the
// same room. Without any of these, a same-name object is another instance.
func (g *Graph) match(d world.Detection, src Source) *node {
	taken := func(n *node) bool { return n.matched == g.pass }
	if n, ok := g.byID[d.ID]; ok && d.ID != "" {
		if taken(n) {
			return nil
		}
		return n
	}
	same := g.detectable(d.Name)
	if len(same) == 0 {
		return nil
	}
	held := g.holding()
	var best *node
	bestScore := 0.0
	for _, n := range same {
		if taken(n) || d.Class != "" && n.class != "" && !strings.EqualFold(d.Class, n.class) || d.ID != "" && n.id != "" {
			continue
		}
		// A state group of this very observation reported the name: the
		// detection is that thing, wherever it places it (one name in one
		// observation is one thing).
		reported := n.stateSrc == src
		if !reported && d.Room != "" && n.room != "" && d.Room != n.room && n.ref != held && n.pos != nil {
			continue
		}
		score, ok := 0.0, false
		switch {
		case reported:
			score, ok = -1, true
		case n.pos != nil && d.Position != nil:
			// Farther than the radius on one axis is farther in all: no
			// need of the distance (most of a crowd of one name).
			if math.Abs(n.pos.X-d.Position.X) > matchRadiusM || math.Abs(n.pos.Y-d.Position.Y) > matchRadiusM {
				break
			}
			score = dist(*n.pos, *d.Position)
			ok = score <= matchRadiusM
		case n.ref == held:
			score, ok = matchRadiusM+0.1, true
		case g.supportAgrees(n.ref, d):
			score, ok = matchRadiusM+0.2, true
		case n.pos == nil && n.seen.Kind == "call":
			score, ok = matchRadiusM+0.3, true
		case n.pos == nil && len(n.views) == 0 && len(n.rels) == 0:
			// Known only from a state report (state.doors: front_door):
			// the thing of that name, wherever the detection places it.
			score, ok = matchRadiusM+0.35, true
		case d.Relation == "" && (d.Room == "" || n.room == "" || strings.EqualFold(d.Room, n.room)):
			// Nothing to compare but the name, class and room: the same
			// object, not a new one every turn.
			score, ok = matchRadiusM+0.4, true
		}
		if ok && (best == nil || score < bestScore) {
			best, bestScore = n, score
		}
	}
	return best
}

// supportAgrees reports whether the graph's support of ref is the
// detection's relation and target.
func (g *Graph) supportAgrees(ref string, d world.Detection) bool {
	for _, r := range g.nodes[ref].rels {
		if r.Subject != ref || r.Kind != RelOn && r.Kind != RelIn && r.Kind != RelNear {
			continue
		}
		if r.Kind == d.Relation && g.nodes[r.Target] != nil && strings.EqualFold(g.nodes[r.Target].name, d.Target) {
			return true
		}
	}
	return false
}

// updateHeld takes the observation's held object as evidence: the robot
// holds it (the held object resolved like an effect's name), or holds
// nothing when held was sent empty. Either way what the robot holds is
// confirmed.
func (g *Graph) updateHeld(held string, src Source) {
	g.confirm(g.nodes[RobotRef])
	if held == "" {
		g.hold("", src)
		return
	}
	n := g.object(held, src)
	n.seen = src
	g.touch(n)
	g.confirm(n)
	if g.holding() == n.ref {
		// Re-observed: the fact is confirmed again, by this observation.
		for _, r := range g.edges(RobotRef, RelHolding) {
			r.Source = src
			g.touchRel(r)
		}
		return
	}
	g.hold(n.ref, src)
}

// object resolves a name or ref to the thing it names (see thing), making
// an object when none is known.
func (g *Graph) object(nameOrRef string, src Source) *node {
	return g.resolve(nameOrRef, KindObject, "", src)
}

func keep(old, v string) string {
	if v == "" {
		return old
	}
	return v
}
