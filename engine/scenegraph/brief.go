package scenegraph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/internal/quantity"
)

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
// that matter most now (see byPriority: what the robot holds or is near,
// then the freshest, then the nearest) are the ones listed, and the first
// Detailed of them get every field; the other lines keep only the ref, its
// support and its age. A last line counts the refs not listed and points to
// scene_lookup.
//
// A ref's line is rendered again only when what it shows changed (see
// lineCache); the rest of the Brief is written into a buffer kept from the
// last one, so a turn costs about one string.
func (g *Graph) Brief(l BriefLimits) string {
	b := append(g.briefBuf[:0], "Scene Graph Brief (turn "...)
	b = strconv.AppendInt(b, int64(g.TaskTurn()), 10)
	b = append(b, ", frame "...)
	b = append(b, g.frame...)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(len(g.order)), 10)
	b = append(b, " refs; [source tN] says where each fact comes from and at which turn of this task ([source, task K]: an earlier task)"...)
	if g.staleAfter > 0 {
		b = append(b, "; stale: not confirmed for "...)
		b = strconv.AppendInt(b, int64(g.staleAfter), 10)
		b = append(b, "+ turns"...)
	}
	b = append(b, "):\n- "...)
	b = g.appendRobotLine(b)
	b = append(b, '\n')
	list, hidden := g.briefNodes(l)
	for _, e := range list {
		b = append(b, "- "...)
		b = g.appendLine(b, e.n, e.detailed)
		b = append(b, '\n')
	}
	switch {
	case hidden > 0:
		b = append(b, "… and "...)
		b = appendThousands(b, hidden)
		b = append(b, " more refs, not listed: use scene_lookup (a name, class, room or ref) to find them\n"...)
	case len(list) == 0:
		b = append(b, "(no objects observed yet)\n"...)
	}
	for len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	g.briefBuf = b
	return string(b)
}

// robotLine is the robot's line (never cached: its pose changes with
// every observation).
func (g *Graph) robotLine() string { return string(g.appendRobotLine(nil)) }

func (g *Graph) appendRobotLine(b []byte) []byte {
	r := g.nodes[RobotRef]
	w := liner{g: g, b: append(b, "robot: "...)}
	if r.pos != nil {
		if r.room != "" {
			w.str("in ")
			w.str(r.room)
			w.str(" ")
		}
		w.str("at ")
		w.b = quantity.AppendPoint(w.b, r.pos.X, r.pos.Y)
		w.str(" facing ")
		w.b = quantity.AppendDegrees(w.b, r.thetaDeg)
		w.tag(r.seen)
		w.str("; ")
	}
	// What the robot holds is stated only on evidence (an observation's
	// held, a confirmed call), with its source and age; without any it is
	// unknown, never "nothing".
	switch h := g.firstEdge(RobotRef, RelHolding); {
	case h != nil:
		w.str("holding ")
		w.str(h.Target)
		w.tag(h.Source)
	case g.emptyHand.Kind != "":
		w.str("holding nothing")
		w.tag(g.emptyHand)
	default:
		w.str("holding: unknown (not reported yet)")
	}
	w.unconfirmed(r)
	for _, e := range r.rels {
		if e.Subject == RobotRef && e.Kind == RelNear {
			w.str("; near ")
			w.str(e.Target)
			w.tag(e.Source)
		}
	}
	return w.b
}

// line is a node's detailed line.
func (g *Graph) line(n *node) string { return string(g.appendLine(nil, n, true)) }

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
