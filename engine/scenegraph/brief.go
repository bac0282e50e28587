package scenegraph

import (
	"fmt"
	"slices"
	"strings"
)

// short renders a source as "observe/head t5" or "pick_up ✓ t4".
func (s Source) short() string {
	switch s.Kind {
	case "call":
		return fmt.Sprintf("%s ✓ t%d", s.Tool, s.Turn)
	case "":
		return ""
	}
	w := s.Tool
	if s.Camera != "" {
		w += "/" + s.Camera
	}
	return fmt.Sprintf("%s t%d", w, s.Turn)
}

// DefaultMaxRefs is how many refs a Brief renders when its limits say none
// (scene_graph.max_brief_refs' default): a graph of thousands of refs must
// not grow every model request.
const DefaultMaxRefs = 40

// BriefLimits bound the Brief.
type BriefLimits struct {
	// Detailed refs get every field; those after keep only the ref, its
	// support and its age (0: all detailed).
	Detailed int
	// MaxRefs refs are rendered at most (the robot aside); the rest are
	// counted and left to scene_lookup (0: DefaultMaxRefs).
	MaxRefs int
}

// Brief renders the robot and at most MaxRefs refs, one line each: objects
// and containers freshest first, then places. Each fact carries its source
// and turn, and "stale" when not confirmed for stale_after_turns. The refs
// that matter most now (see briefPriority: what the robot holds or is near,
// then the freshest, then the nearest) are the ones listed, and the first
// Detailed of them get every field; the other lines keep only the ref, its
// support and its age. A last line counts the refs not listed and points to
// scene_lookup.
func (g *Graph) Brief(l BriefLimits) string {
	g.markStale()
	var b strings.Builder
	stale := ""
	if g.staleAfter > 0 {
		stale = fmt.Sprintf("; stale: not confirmed for %d+ turns", g.staleAfter)
	}
	fmt.Fprintf(&b, "Scene Graph Brief (turn %d, frame %s, %d refs; [source tN] says where each fact comes from%s):\n",
		g.turn, g.frame, len(g.order), stale)
	b.WriteString("- " + g.robotLine() + "\n")
	ns, detailed, hidden := g.briefNodes(l)
	for _, n := range ns {
		b.WriteString("- ")
		if detailed[n] {
			b.WriteString(g.line(n))
		} else {
			b.WriteString(g.coarseLine(n))
		}
		b.WriteString("\n")
	}
	switch {
	case hidden > 0:
		fmt.Fprintf(&b, "… and %s more refs, not listed: use scene_lookup (a name, class, room or ref) to find them\n", thousands(hidden))
	case len(ns) == 0:
		b.WriteString("(no objects observed yet)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (g *Graph) robotLine() string {
	r := g.nodes[RobotRef]
	var parts []string
	if r.pos != nil {
		where := fmt.Sprintf("at (%.2f, %.2f) facing %.0f°", r.pos.X, r.pos.Y, r.thetaDeg)
		if r.room != "" {
			where = "in " + r.room + " " + where
		}
		parts = append(parts, where+g.tag(r.seen))
	}
	held := "holding nothing"
	if es := g.edges(RobotRef, RelHolding); len(es) > 0 {
		held = "holding " + es[0].Target + g.relTag(es[0])
	}
	parts = append(parts, held)
	for _, e := range g.edges(RobotRef, RelNear) {
		parts = append(parts, "near "+e.Target+g.relTag(e))
	}
	return "robot: " + strings.Join(parts, "; ")
}

// line is a node's detailed line.
func (g *Graph) line(n *node) string {
	s := n.ref
	if n.class != "" && n.class != n.name {
		s += " (" + n.class + ")"
	}
	var facts []string
	if n.state != "" {
		facts = append(facts, n.state+g.tag(n.stateSrc))
	}
	facts = append(facts, g.supportFacts(n, true, n.seen)...)
	if n.pos != nil && n.kind == KindObject {
		facts = append(facts, fmt.Sprintf("at (%.1f, %.1f)", n.pos.X, n.pos.Y))
	}
	if n.room != "" {
		facts = append(facts, "room "+n.room)
	}
	if len(facts) > 0 {
		s += ": " + strings.Join(facts, ", ")
	}
	if n.kind == KindObject {
		s += g.tag(n.seen)
	}
	return s
}

// coarseLine is a node's line past the detailed ones: ref, support, age.
func (g *Graph) coarseLine(n *node) string {
	s := n.ref
	if f := g.supportFacts(n, false, Source{}); len(f) > 0 {
		s += ": " + strings.Join(f, ", ")
	}
	if n.seen.Kind != "" {
		s += fmt.Sprintf(" [t%d%s]", n.seen.Turn, g.staleWord(n.seen.Turn))
	}
	return s
}

// supportFacts are where a node is: held by the robot, or its relations;
// with withSource, each fact whose source is not the node's own (line) says
// where it comes from.
func (g *Graph) supportFacts(n *node, withSource bool, own Source) []string {
	var facts []string
	tag := func(r *Relation) string {
		if withSource && (r.Source != own || n.kind != KindObject) {
			return g.relTag(r)
		}
		return ""
	}
	for _, r := range g.rels {
		switch {
		case r.Kind == RelHolding && r.Target == n.ref:
			facts = append(facts, "held by robot"+tag(r))
		case r.Subject == n.ref:
			facts = append(facts, r.Kind+" "+r.Target+tag(r))
		}
	}
	return facts
}

func (g *Graph) tag(s Source) string {
	if s.Kind == "" {
		return ""
	}
	return " [" + s.short() + g.staleWord(s.Turn) + "]"
}

func (g *Graph) relTag(r *Relation) string { return g.tag(r.Source) }

func (g *Graph) staleWord(turn int) string {
	if g.stale(turn) {
		return ", stale"
	}
	return ""
}

// sortedNodes are the non-robot nodes: objects and containers freshest
// first (then by ref), then places by ref, so the Brief is deterministic.
func (g *Graph) sortedNodes() []*node {
	ns := slices.DeleteFunc(slices.Clone(g.order), func(n *node) bool { return n.kind == KindRobot })
	slices.SortStableFunc(ns, func(a, b *node) int {
		if ra, rb := placeRank(a), placeRank(b); ra != rb {
			return ra - rb
		}
		if a.kind != KindPlace && a.seen.Turn != b.seen.Turn {
			return b.seen.Turn - a.seen.Turn
		}
		return strings.Compare(a.ref, b.ref)
	})
	return ns
}

// placeRank puts places after objects and containers.
func placeRank(n *node) int {
	if n.kind == KindPlace {
		return 1
	}
	return 0
}
