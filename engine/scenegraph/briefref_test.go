package scenegraph

// The Brief as it was rendered before its lines were cached: every line
// from the node's fields and a walk over all relations, with fmt, on every
// call. The tests hold the Brief to it byte for byte.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/internal/quantity"
)

// refEdges is edges by a walk over all relations, not the node index.
func (g *Graph) refEdges(subject string, kinds ...string) []*Relation {
	var out []*Relation
	for _, r := range g.rels {
		if r.Subject == subject && slices.Contains(kinds, r.Kind) {
			out = append(out, r)
		}
	}
	return out
}

// refThousands writes n with a comma every three digits: 2,960.
func refThousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// short renders a source as "observe/head t5" or "pick_up ✓ t4".
func (s Source) refShort() string {
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

// Brief renders the robot and at most MaxRefs refs, one line each: objects
// and containers freshest first, then places. Each fact carries its source
// and turn, and "stale" when not confirmed for stale_after_turns. The refs
// that matter most now (see briefPriority: what the robot holds or is near,
// then the freshest, then the nearest) are the ones listed, and the first
// Detailed of them get every field; the other lines keep only the ref, its
// support and its age. A last line counts the refs not listed and points to
// scene_lookup.
func (g *Graph) refBrief(l BriefLimits) string {
	g.markStale()
	var b strings.Builder
	stale := ""
	if g.staleAfter > 0 {
		stale = fmt.Sprintf("; stale: not confirmed for %d+ turns", g.staleAfter)
	}
	fmt.Fprintf(&b, "Scene Graph Brief (turn %d, frame %s, %d refs; [source tN] says where each fact comes from and at which turn of this task ([source, task K]: an earlier task)%s):\n",
		g.turn, g.frame, len(g.order), stale)
	b.WriteString("- " + g.refRobotLine() + "\n")
	ns, detailed, hidden := g.refBriefNodes(l)
	for _, n := range ns {
		b.WriteString("- ")
		if detailed[n] {
			b.WriteString(g.refLine(n))
		} else {
			b.WriteString(g.refCoarseLine(n))
		}
		b.WriteString("\n")
	}
	switch {
	case hidden > 0:
		fmt.Fprintf(&b, "… and %s more refs, not listed: use scene_lookup (a name, class, room or ref) to find them\n", refThousands(hidden))
	case len(ns) == 0:
		b.WriteString("(no objects observed yet)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (g *Graph) refRobotLine() string {
	r := g.nodes[RobotRef]
	var parts []string
	if r.pos != nil {
		where := "at " + string(quantity.AppendPoint(nil, r.pos.X, r.pos.Y)) + " facing " + string(quantity.AppendDegrees(nil, r.thetaDeg))
		if r.room != "" {
			where = "in " + r.room + " " + where
		}
		parts = append(parts, where+g.refTag(r.seen))
	}
	held := "holding: unknown (not reported yet)"
	if g.emptyHand.Kind != "" {
		held = "holding nothing" + g.refTag(g.emptyHand)
	}
	if es := g.refEdges(RobotRef, RelHolding); len(es) > 0 {
		held = "holding " + es[0].Target + g.refRelTag(es[0])
	}
	parts = append(parts, held+refUnconfirmed(g.nodes[RobotRef]))
	for _, e := range g.refEdges(RobotRef, RelNear) {
		parts = append(parts, "near "+e.Target+g.refRelTag(e))
	}
	return "robot: " + strings.Join(parts, "; ")
}

// line is a node's detailed line.
func (g *Graph) refLine(n *node) string {
	s := n.ref
	if n.class != "" && n.class != n.name {
		s += " (" + n.class + ")"
	}
	var facts []string
	if n.state != "" {
		if n.sighted() && n.stateSrc == n.seen {
			facts = append(facts, n.state)
		} else {
			facts = append(facts, n.state+g.refTag(n.stateSrc))
		}
	}
	facts = append(facts, g.refSupportFacts(n, true, n.seen)...)
	held := g.holding() == n.ref
	if n.pos != nil && n.sighted() && !held {
		facts = append(facts, "at "+string(quantity.AppendPoint(nil, n.pos.X, n.pos.Y)))
	}
	if n.room != "" && !held {
		facts = append(facts, "room "+n.room)
	}
	if len(facts) > 0 {
		s += ": " + strings.Join(facts, ", ")
	}
	if n.sighted() {
		s += g.refTag(n.seen)
	}
	return s + refUnconfirmed(n)
}

func refUnconfirmed(n *node) string {
	if n.unconfirmed == 0 {
		return ""
	}
	return fmt.Sprintf(" (unconfirmed since turn %d)", n.unconfirmed)
}

// coarseLine is a node's line past the detailed ones: ref, support, age.
func (g *Graph) refCoarseLine(n *node) string {
	s := n.ref
	if f := g.refSupportFacts(n, false, Source{}); len(f) > 0 {
		s += ": " + strings.Join(f, ", ")
	}
	if n.seen.Kind != "" {
		s += fmt.Sprintf(" [t%d%s]", n.seen.Turn, g.refStaleWord(n.seen.Turn))
	}
	return s + refUnconfirmed(n)
}

// supportFacts are where a node is: held by the robot, or its relations;
// with withSource, each fact whose source is not the node's own (line) says
// where it comes from.
func (g *Graph) refSupportFacts(n *node, withSource bool, own Source) []string {
	var facts []string
	tag := func(r *Relation) string {
		if withSource && (r.Source != own || !n.sighted()) {
			return g.refRelTag(r)
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

func (g *Graph) refTag(s Source) string {
	if s.Kind == "" {
		return ""
	}
	return " [" + s.refShort() + g.refStaleWord(s.Turn) + "]"
}

func (g *Graph) refRelTag(r *Relation) string { return g.refTag(r.Source) }

func (g *Graph) refStaleWord(turn int) string {
	if g.stale(turn) {
		return ", stale"
	}
	return ""
}

// sortedNodes are the non-robot nodes: objects and containers freshest
// first (then by ref), then places by ref, so the Brief is deterministic.
func (g *Graph) refSortedNodes() []*node {
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

// briefNodes are the refs a Brief lists, in the Brief's order (see
// sortedNodes), those of them given a detailed line, and how many are not
// listed: the first MaxRefs (0: DefaultMaxRefs) by briefPriority, the first
// Detailed (0: all) of those detailed.
func (g *Graph) refBriefNodes(l BriefLimits) (list []*node, detailed map[*node]bool, hidden int) {
	max := l.MaxRefs
	if max <= 0 {
		max = DefaultMaxRefs
	}
	ns := slices.DeleteFunc(g.refSortedNodes(), func(n *node) bool {
		return n.state == "" && len(n.rels) == 0 && n.room == "" && n.unconfirmed == 0 && !n.sighted() && (n.class == "" || n.class == n.name)
	})
	byPriority := g.refBriefPriority(ns)
	listed := map[*node]bool{}
	detailed = map[*node]bool{}
	for i, n := range byPriority[:min(max, len(byPriority))] {
		listed[n] = true
		if l.Detailed <= 0 || i < l.Detailed {
			detailed[n] = true
		}
	}
	list = slices.DeleteFunc(ns, func(n *node) bool { return !listed[n] })
	return list, detailed, len(byPriority) - len(list)
}

// briefPriority orders refs by what matters to the next decision: what the
// robot holds or stands near first; then objects and containers, the
// freshest first and, of equal freshness, the nearest to the robot (unknown
// distances last); then places; ties by ref.
func (g *Graph) refBriefPriority(ns []*node) []*node {
	nearRobot := map[string]bool{}
	for _, r := range g.refEdges(RobotRef, RelHolding, RelNear) {
		nearRobot[r.Target] = true
	}
	robot := g.nodes[RobotRef].pos
	type ranked struct {
		n     *node
		close bool
		place int
		d     float64
	}
	rs := make([]ranked, len(ns))
	for i, n := range ns {
		rs[i] = ranked{n: n, close: nearRobot[n.ref], place: placeRank(n), d: g.distance(n, robot)}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		switch {
		case a.close != b.close:
			if a.close {
				return -1
			}
			return 1
		case a.place != b.place:
			return a.place - b.place
		case a.place == 0 && a.n.seen.Turn != b.n.seen.Turn:
			return b.n.seen.Turn - a.n.seen.Turn
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		}
		return strings.Compare(a.n.ref, b.n.ref)
	})
	out := make([]*node, len(rs))
	for i, r := range rs {
		out[i] = r.n
	}
	return out
}
