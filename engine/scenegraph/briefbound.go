package scenegraph

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// briefNodes are the refs a Brief lists, in the Brief's order (see
// sortedNodes), those of them given a detailed line, and how many are not
// listed: the first MaxRefs (0: DefaultMaxRefs) by briefPriority, the first
// Detailed (0: all) of those detailed.
func (g *Graph) briefNodes(l BriefLimits) (list []*node, detailed map[*node]bool, hidden int) {
	max := l.MaxRefs
	if max <= 0 {
		max = DefaultMaxRefs
	}
	ns := g.sortedNodes()
	byPriority := g.briefPriority(ns)
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
func (g *Graph) briefPriority(ns []*node) []*node {
	nearRobot := map[string]bool{}
	for _, r := range g.edges(RobotRef, RelHolding, RelNear) {
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

// distance is how far n is from the robot: by position, else by what the
// detection said; +Inf when unknown.
func (g *Graph) distance(n *node, robot *schema.Point) float64 {
	switch {
	case robot != nil && n.pos != nil:
		return dist(*robot, *n.pos)
	case n.distM > 0:
		return n.distM
	}
	return math.Inf(1)
}

// thousands writes n with a comma every three digits: 2,960.
func thousands(n int) string {
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
