package scenegraph

import (
	"math"

	"github.com/thea-harness/thea/internal/quantity"
)

// lineCache is a node's rendered Brief line (detailed or coarse). A line
// shows the node's fields, its relations (the node's rels) and, for each
// source it tags, whether that source is stale. Every change to the first
// two goes through touch (see node.ver); staleness changes with the clock
// only, and only one way: a source not stale at the graph's turn T turns
// stale at T' >= its turn + staleAfter, and stays so (the turn never goes
// back). So a line rendered at version v is the line to render while the
// node is at version v and the graph's turn is below until, the first turn
// at which one of the sources it tags turns stale.
type lineCache struct {
	text  []byte
	ver   uint64
	until int
	// epoch is the graph's clockEpoch the line was rendered in: a new task
	// renders its turns anew.
	epoch uint64
	ok    bool
}

// appendLine appends n's detailed or coarse line, from its cache when the
// cached one is still the line (see lineCache).
func (g *Graph) appendLine(b []byte, n *node, detailed bool) []byte {
	c := &n.coarse
	if detailed {
		c = &n.detailed
	}
	if c.ok && c.ver == n.ver && g.turn < c.until && c.epoch == g.clockEpoch {
		return append(b, c.text...)
	}
	start := len(b)
	w := liner{g: g, b: b, until: math.MaxInt}
	if detailed {
		w.line(n)
	} else {
		w.coarseLine(n)
	}
	c.text = append(c.text[:0], w.b[start:]...)
	c.ver, c.until, c.epoch, c.ok = n.ver, w.until, g.clockEpoch, true
	return w.b
}

// liner appends a line to b, and notes in until the first turn at which a
// source it tags turns stale (math.MaxInt: none will).
type liner struct {
	g     *Graph
	b     []byte
	until int
	// facts counts the facts written, for their separators.
	facts int
}

func (w *liner) str(s string) { w.b = append(w.b, s...) }

// fact starts one fact of a line: ": " before the first, ", " between.
func (w *liner) fact() {
	if w.facts == 0 {
		w.str(": ")
	} else {
		w.str(", ")
	}
	w.facts++
}

// line writes a node's detailed line.
func (w *liner) line(n *node) {
	w.str(n.ref)
	if n.class != "" && n.class != n.name {
		w.str(" (")
		w.str(n.class)
		w.str(")")
	}
	if n.state != "" {
		w.fact()
		w.str(n.state)
		// A sighted thing's line ends with its own source: a state from that same
		// evidence is not stamped twice.
		if !n.sighted() || n.stateSrc != n.seen {
			w.tag(n.stateSrc)
		}
	}
	w.supportFacts(n, true, n.seen)
	// A held object is where the robot is: the robot's line says where,
	// and an own room or position would be where it was picked up.
	held := n.held()
	if n.pos != nil && n.sighted() && !held {
		w.fact()
		w.str("at ")
		w.b = quantity.AppendPoint(w.b, n.pos.X, n.pos.Y)
	}
	if n.room != "" && !held {
		w.fact()
		w.str("room ")
		w.str(n.room)
	}
	if n.sighted() {
		w.tag(n.seen)
	}
	w.unconfirmed(n)
}

// held reports whether the robot holds n.
func (n *node) held() bool {
	for _, r := range n.rels {
		if r.Kind == RelHolding && r.Target == n.ref {
			return true
		}
	}
	return false
}

// unconfirmed writes " (unconfirmed since turn N)" on a node a physical
// call without a success verdict may have changed (see MarkUnconfirmed).
func (w *liner) unconfirmed(n *node) {
	if n.unconfirmed != 0 {
		w.str(" (unconfirmed since ")
		w.b = w.g.appendSince(w.b, n.unconfirmed)
		w.str(")")
	}
}

// coarseLine writes a node's line past the detailed ones: ref, support,
// age.
func (w *liner) coarseLine(n *node) {
	w.str(n.ref)
	w.supportFacts(n, false, Source{})
	if n.seen.Kind != "" {
		w.str(" [")
		w.b = w.g.appendTurn(w.b, n.seen.Turn)
		w.staleWord(n.seen.Turn)
		w.str("]")
	}
	w.unconfirmed(n)
}

// supportFacts write where a node is: held by the robot, or its
// relations; with withSource, each fact whose source is not the node's own
// (line) says where it comes from.
func (w *liner) supportFacts(n *node, withSource bool, own Source) {
	for _, r := range n.rels {
		switch {
		case r.Kind == RelHolding && r.Target == n.ref:
			w.fact()
			w.str("held by robot")
		case r.Subject == n.ref:
			w.fact()
			w.str(r.Kind)
			w.str(" ")
			w.str(r.Target)
		default:
			continue
		}
		if withSource && (r.Source != own || !n.sighted()) {
			w.tag(r.Source)
		}
	}
}

// tag writes a source as " [observe/head t5]", ", stale" within when it
// is.
func (w *liner) tag(s Source) {
	if s.Kind == "" {
		return
	}
	w.str(" [")
	w.b = w.g.appendShort(w.b, s)
	w.staleWord(s.Turn)
	w.str("]")
}

func (w *liner) staleWord(turn int) {
	g := w.g
	switch {
	case g.stale(turn):
		w.str(", stale")
	case g.staleAfter > 0:
		// Not stale yet: it is from this turn on. (An overflow makes
		// until low, which renders the line again: never a wrong line.)
		w.until = min(w.until, turn+g.staleAfter)
	}
}
