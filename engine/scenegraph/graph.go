package scenegraph

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/thea-harness/thea/world"
)

// NodeKind says what a ref stands for.
type NodeKind string

// The node kinds.
const (
	KindObject    NodeKind = "object"
	KindContainer NodeKind = "container"
	KindPlace     NodeKind = "place"
	KindRobot     NodeKind = "robot"
)

// RobotRef is the robot's ref.
const RobotRef = "robot"

// The relations of the graph. An object rests on or in one thing, or is
// held by the robot: one support at a time.
const (
	RelOn      = "on"
	RelIn      = "in"
	RelNear    = "near"
	RelHolding = "holding"
)

const (
	// matchRadiusM: a detection within this distance of a known object of
	// the same name and class is that object.
	matchRadiusM = 0.5
	// nearDriftM: the robot is no longer near what it drove to once it has
	// moved this far from where it stood.
	nearDriftM = 1.0
)

// Source is the provenance of a fact: an observation (which tool, which
// camera) or a confirmed call (which tool, which call).
type Source struct {
	Kind   string `json:"kind"` // observation | call
	Tool   string `json:"tool,omitempty"`
	Camera string `json:"camera,omitempty"`
	CallID string `json:"call_id,omitempty"`
	// Turn is the session's turn inside the graph; a tool's result shows the
	// task's (see shown), and Task names the earlier task of one before it.
	Turn int `json:"turn"`
	Task int `json:"task,omitempty"`
}

// Relation is one typed edge: Subject Kind Target (obj:mug on place:table,
// robot holding obj:mug), with where it comes from.
type Relation struct {
	Subject string `json:"subject"`
	Kind    string `json:"kind"`
	Target  string `json:"target"`
	Source  Source `json:"source"`
	Stale   bool   `json:"stale,omitempty"`
	// anchor is the robot's position when a robot near relation was set.
	anchor *world.Point
}

type node struct {
	ref, name, class string
	// id is the back-end's own identity of the object (Detection.ID), "" when
	// it sends none.
	id       string
	kind     NodeKind
	room     string
	pos      *world.Point
	thetaDeg float64
	distM    float64
	state    string
	stateSrc Source
	// seen is the last evidence about the node (observation or call).
	seen Source
	// views: camera → the turn it last saw this node.
	views map[string]int
	// rels are the relations this node's line renders, in the graph's
	// order: those it is the subject of, and the robot holding it.
	rels []*Relation
	// ver counts the changes to what the node's lines render (its fields,
	// its rels); touch bumps it, and a cached line of another version is
	// rendered again.
	ver uint64
	// detailed and coarse are its cached Brief lines.
	detailed, coarse lineCache
	// matched is the updateDetections pass that last matched it.
	matched uint64
	// unconfirmed is the turn of a physical call without a success verdict
	// that may have changed this node's facts, 0 when none did since they
	// were last observed (see MarkUnconfirmed). On the robot it marks what
	// the robot holds.
	unconfirmed int
}

type storedImage struct {
	img  world.Image
	turn int
}

// Graph is the working Scene Graph of one session. It is not safe for
// concurrent use, reads included (Brief and Describe fill its line
// caches); the engine serialises access.
type Graph struct {
	staleAfter int
	frame      string
	turn       int
	// epochs are the session's tasks (see BeginTask); clockEpoch counts
	// them, so a cached line of another task is rendered again.
	epochs     []epoch
	clockEpoch uint64
	nodes      map[string]*node
	order      []*node // creation order
	// byName indexes the nodes by case-folded name, in creation order: a
	// flood of detections must not scan every node per detection.
	byName map[string][]*node
	// byID indexes the objects by the back-end's id (Detection.ID).
	byID map[string]*node
	rels []*Relation
	// images keeps the last image of each camera only; refs point to it.
	images map[string]storedImage
	// emptyHand is the evidence that the robot holds nothing (an
	// observation's empty held, a confirmed call's clear); its Kind is ""
	// while nothing says so: what the robot holds is then unknown.
	emptyHand Source
	// applied: keys of the calls whose effects were applied → their turn.
	applied map[string]int
	// pass numbers the updateDetections passes (see node.matched).
	pass uint64
	// Buffers reused from one call to the next, so a turn allocates little.
	briefBuf  []byte
	ranks     []ranked
	sightings []sighting
}

// Option configures a Graph.
type Option func(*Graph)

// WithFrame declares the frame positions are given in (default "map").
func WithFrame(frame string) Option {
	return func(g *Graph) {
		if frame != "" {
			g.frame = frame
		}
	}
}

// New makes a graph holding only the robot; facts not confirmed for
// staleAfter turns are marked stale (0 disables staleness).
func New(staleAfter int, opts ...Option) *Graph {
	g := &Graph{staleAfter: staleAfter, frame: "map", nodes: map[string]*node{}, byName: map[string][]*node{}, byID: map[string]*node{},
		images: map[string]storedImage{}, applied: map[string]int{}}
	for _, o := range opts {
		o(g)
	}
	g.add(&node{ref: RobotRef, name: RobotRef, kind: KindRobot})
	return g
}

// Frame is the frame the graph's positions are in.
func (g *Graph) Frame() string { return g.frame }

func (g *Graph) add(n *node) *node {
	if n.views == nil {
		n.views = map[string]int{}
	}
	g.nodes[n.ref] = n
	g.order = append(g.order, n)
	k := foldKey(n.name)
	g.byName[k] = append(g.byName[k], n)
	return n
}

// newRef gives a fresh ref for a name: obj:mug, then obj:mug#2, obj:mug#3.
func (g *Graph) newRef(prefix, name string) string {
	base := prefix + ":" + strings.ReplaceAll(name, " ", "_")
	if _, taken := g.nodes[base]; !taken {
		return base
	}
	for i := 2; ; i++ {
		r := base + "#" + strconv.Itoa(i)
		if _, taken := g.nodes[r]; !taken {
			return r
		}
	}
}

// Len is the number of refs, the robot included.
func (g *Graph) Len() int { return len(g.order) }

// Advance moves the graph's clock without new evidence, so freshness keeps
// counting.
func (g *Graph) Advance(turn int) {
	g.turn = max(g.turn, turn)
}

// markStale sets each relation's Stale for the graph's turn. Relations, the
// only way a Relation leaves the graph, calls it; nothing else reads Stale.
func (g *Graph) markStale() {
	stale := func(turn int) bool { return g.staleAfter > 0 && g.turn-turn >= g.staleAfter }
	for _, r := range g.rels {
		r.Stale = stale(r.Source.Turn)
	}
}

func (g *Graph) stale(turn int) bool { return g.staleAfter > 0 && g.turn-turn >= g.staleAfter }

// findByName returns the nodes of the kinds named name (case-insensitive),
// in creation order; the caller must not change the slice (it may be the
// index's own, when every node of the name is of those kinds).
func (g *Graph) findByName(name string, kinds ...NodeKind) []*node {
	var buf [64]byte
	all := g.byName[string(appendFold(buf[:0], name))]
	i := 0
	for i < len(all) && slices.Contains(kinds, all[i].kind) {
		i++
	}
	if i == len(all) {
		return all
	}
	out := slices.Clip(all[:i])
	for _, n := range all[i+1:] {
		if slices.Contains(kinds, n.kind) {
			out = append(out, n)
		}
	}
	return out
}

// place returns the node a relation's target names (see thing), else a
// new place.
func (g *Graph) place(name, room string, src Source) *node {
	return g.resolve(name, KindPlace, room, src)
}

// nearest picks, of several nodes, the one held, else the closest to the
// robot, else the freshest, else the first made: a name resolves the same
// way every time.
func (g *Graph) nearest(ns []*node) *node {
	if len(ns) == 1 {
		return ns[0]
	}
	held := g.holding()
	robot := g.nodes[RobotRef].pos
	best, bestScore := ns[0], math.Inf(1)
	for _, n := range ns {
		score := float64(g.turn-n.seen.Turn) * 100
		switch {
		case n.ref == held:
			score = -1
		case robot != nil && n.pos != nil:
			score = dist(*robot, *n.pos)
		}
		if score < bestScore {
			best, bestScore = n, score
		}
	}
	return best
}

func dist(a, b world.Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// foldKey maps every string equal to s under strings.EqualFold (simple
// Unicode case folding) to one key: each rune becomes the least of its
// folding orbit.
func foldKey(s string) string { return string(appendFold(nil, s)) }

// appendFold appends foldKey(s) to b.
func appendFold(b []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			// The least of an ASCII letter's orbit is its upper case (the
			// orbits of k and s hold K and ſ, both above ASCII).
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b = append(b, byte(r))
			continue
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b = utf8.AppendRune(b, least)
	}
	return b
}
