package scenegraph

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/world"
)

// ranked is a ref with what byPriority orders it by, and whether the Brief
// gives it a detailed line.
type ranked struct {
	n *node
	d float64
	// turn is the node's seen.Turn, kept here for the comparisons.
	turn     int
	close    bool
	place    bool
	detailed bool
}

// briefNodes are the refs a Brief lists, in the Brief's order (see
// sortedNodes) and marked detailed or not, and how many are not listed:
// the first MaxRefs (0: DefaultMaxRefs) by byPriority, the first Detailed
// (0: all) of those detailed. The slice is the graph's buffer, valid until
// the next call.
func (g *Graph) briefNodes(l BriefLimits) (list []ranked, hidden int) {
	max := l.MaxRefs
	if max <= 0 {
		max = DefaultMaxRefs
	}
	robot := g.nodes[RobotRef]
	// What the robot holds or stands near: a ref or two.
	var closeBuf [4]string
	closeTo := closeBuf[:0]
	for _, r := range robot.rels {
		if r.Subject == RobotRef && (r.Kind == RelHolding || r.Kind == RelNear) {
			closeTo = append(closeTo, r.Target)
		}
	}
	rs, noNaN := g.ranks[:0], true
	// The newest refs first: they tend to be the freshest, so smallest
	// finds the best early and keeps them.
	for i := len(g.order) - 1; i >= 0; i-- {
		n := g.order[i]
		if n.kind == KindRobot || n.bare() {
			continue
		}
		d := g.distance(n, robot.pos)
		noNaN = noNaN && !math.IsNaN(d)
		rs = append(rs, ranked{n: n, d: d, turn: n.seen.Turn, close: slices.Contains(closeTo, n.ref), place: n.kind == KindPlace})
	}
	g.ranks = rs
	all := len(rs)
	if noNaN {
		// byPriority and byDisplay are total orders (the ref decides last),
		// so the refs listed and the order they are listed in are the same
		// whichever way they are found: the first max by priority are
		// picked without sorting all of them, and sorted only when some of
		// them are not detailed.
		if len(rs) > max {
			rs = smallest(rs, max)
		}
		if l.Detailed > 0 && l.Detailed < len(rs) {
			slices.SortFunc(rs, byPriority)
		}
	} else {
		// A distance that is NaN compares as no distance at all, and
		// byPriority is no order then: the refs are ranked as they always
		// were, by sorting them all from the Brief's order.
		slices.SortFunc(rs, byDisplay)
		slices.SortFunc(rs, byPriority)
		rs = rs[:min(max, len(rs))]
	}
	for i := range rs {
		rs[i].detailed = l.Detailed <= 0 || i < l.Detailed
	}
	slices.SortFunc(rs, byDisplay)
	return rs, all - len(rs)
}

// bare reports whether n's line would be its ref alone (a place known only
// as a relation's target, which the lines relating to it name): it carries
// nothing, so the Brief leaves it out.
func (n *node) bare() bool {
	return n.state == "" && len(n.rels) == 0 && n.room == "" && n.unconfirmed == 0 && !n.sighted() &&
		(n.class == "" || n.class == n.name)
}

// byPriority orders refs by what matters to the next decision: what the
// robot holds or stands near first; then objects and containers, the
// freshest first and, of equal freshness, the nearest to the robot (unknown
// distances last); then places; ties by ref.
func byPriority(a, b ranked) int {
	switch {
	case a.close != b.close:
		if a.close {
			return -1
		}
		return 1
	case a.place != b.place:
		if b.place {
			return -1
		}
		return 1
	case !a.place && a.turn != b.turn:
		return b.turn - a.turn
	case a.d < b.d:
		return -1
	case a.d > b.d:
		return 1
	}
	return strings.Compare(a.n.ref, b.n.ref)
}

// byDisplay is the Brief's order (sortedNodes').
func byDisplay(a, b ranked) int {
	if a.place != b.place {
		if b.place {
			return -1
		}
		return 1
	}
	if !a.place && a.turn != b.turn {
		return b.turn - a.turn
	}
	return strings.Compare(a.n.ref, b.n.ref)
}

// smallest moves the k first of rs by byPriority to rs[:k] (in no
// particular order) and returns it: a heap of the best k so far, its worst
// at the root, so each other ref costs one comparison when it is not
// better.
func smallest(rs []ranked, k int) []ranked {
	h := rs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	for _, r := range rs[k:] {
		if byPriority(r, h[0]) < 0 {
			h[0] = r
			siftDown(h, 0)
		}
	}
	return h
}

// siftDown restores the heap (the greatest by byPriority at the root)
// below i.
func siftDown(h []ranked, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && byPriority(h[c+1], h[c]) > 0 {
			c++
		}
		if byPriority(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// distance is how far n is from the robot: by position, else by what the
// detection said; +Inf when unknown.
func (g *Graph) distance(n *node, robot *world.Point) float64 {
	switch {
	case robot != nil && n.pos != nil:
		return dist(*robot, *n.pos)
	case n.distM > 0:
		return n.distM
	}
	return math.Inf(1)
}

// thousands writes n with a comma every three digits: 2,960.
func thousands(n int) string { return string(appendThousands(nil, n)) }

func appendThousands(b []byte, n int) []byte {
	var digits [24]byte
	s := strconv.AppendInt(digits[:0], int64(n), 10)
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}
