package scenegraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// Entry is one object of the graph.
type Entry struct {
	Ref      string `json:"ref"`
	Name     string `json:"name"`
	Class    string `json:"class,omitempty"`
	Relation string `json:"relation,omitempty"`
	Target   string `json:"target,omitempty"`
	Room     string `json:"room,omitempty"`
	// Source is the tool (and camera) that last reported the object.
	Source   string  `json:"source"`
	SeenTurn int     `json:"seen_turn"` // freshness
	Stale    bool    `json:"stale,omitempty"`
	DistM    float64 `json:"distance_m,omitempty"`
}

// Graph is the working Scene Graph of one session. It is not safe for
// concurrent use; the engine serialises access.
type Graph struct {
	staleAfter int
	byName     map[string]*Entry
	order      []*Entry // insertion order; the Brief sorts a copy
	turn       int
}

// New makes an empty graph; entries not re-observed for staleAfter turns are
// marked stale (0 disables staleness).
func New(staleAfter int) *Graph {
	return &Graph{staleAfter: staleAfter, byName: map[string]*Entry{}}
}

// Update merges one observation's detections seen at turn by source.
func (g *Graph) Update(dets []schema.Detection, turn int, source string) {
	g.turn = max(g.turn, turn)
	for _, d := range dets {
		if d.Name == "" {
			continue
		}
		e, ok := g.byName[d.Name]
		if !ok {
			e = &Entry{Ref: "obj:" + d.Name, Name: d.Name}
			g.byName[d.Name] = e
			g.order = append(g.order, e)
		}
		src := source
		if d.Camera != "" {
			src = source + "/" + d.Camera
		}
		e.Class, e.Relation, e.Target, e.Room = keep(e.Class, d.Class), keep(e.Relation, d.Relation), keep(e.Target, d.Target), keep(e.Room, d.Room)
		e.Source, e.SeenTurn, e.DistM = src, turn, d.DistanceM
	}
	g.markStale()
}

// Advance moves the graph's clock without new evidence (a turn without an
// observation), so freshness keeps counting.
func (g *Graph) Advance(turn int) {
	g.turn = max(g.turn, turn)
	g.markStale()
}

func (g *Graph) markStale() {
	for _, e := range g.order {
		e.Stale = g.staleAfter > 0 && g.turn-e.SeenTurn >= g.staleAfter
	}
}

func keep(old, v string) string {
	if v == "" {
		return old
	}
	return v
}

// Len is the number of objects known.
func (g *Graph) Len() int { return len(g.order) }

// Brief renders at most maxObjects entries, freshest first, with source and
// freshness; it says how many were left out.
func (g *Graph) Brief(maxObjects int) string {
	if len(g.order) == 0 {
		return fmt.Sprintf("Scene Graph Brief (turn %d): no objects observed yet.", g.turn)
	}
	es := g.sorted()
	var b strings.Builder
	fmt.Fprintf(&b, "Scene Graph Brief (turn %d, %d objects):\n", g.turn, len(es))
	n := len(es)
	if maxObjects > 0 && n > maxObjects {
		n = maxObjects
	}
	for _, e := range es[:n] {
		b.WriteString("- ")
		b.WriteString(line(e))
		fmt.Fprintf(&b, " [src %s, seen turn %d", e.Source, e.SeenTurn)
		if e.Stale {
			b.WriteString(", stale")
		}
		b.WriteString("]\n")
	}
	if n < len(es) {
		fmt.Fprintf(&b, "(%d more; ask scene lookup for detail)\n", len(es)-n)
	}
	return strings.TrimRight(b.String(), "\n")
}

func line(e *Entry) string {
	s := e.Ref
	if e.Class != "" {
		s += " (" + e.Class + ")"
	}
	if e.Relation != "" && e.Target != "" {
		s += " " + e.Relation + " " + e.Target
	}
	if e.Room != "" {
		s += " in room " + e.Room
	}
	return s
}

// sorted returns the entries freshest first, then by name, so the Brief is
// deterministic.
func (g *Graph) sorted() []*Entry {
	es := slices.Clone(g.order)
	slices.SortStableFunc(es, func(a, b *Entry) int {
		if a.SeenTurn != b.SeenTurn {
			return b.SeenTurn - a.SeenTurn
		}
		return strings.Compare(a.Name, b.Name)
	})
	return es
}

// Lookup returns copies of the entries whose name, class, room, target or ref
// contains query (case-insensitive), freshest first. An empty query matches all.
func (g *Graph) Lookup(query string) []Entry {
	q := strings.ToLower(strings.TrimSpace(query))
	var out []Entry
	for _, e := range g.sorted() {
		if q == "" || contains(e.Name, q) || contains(e.Class, q) || contains(e.Room, q) || contains(e.Target, q) || contains(e.Ref, q) {
			out = append(out, *e)
		}
	}
	return out
}

func contains(s, q string) bool { return strings.Contains(strings.ToLower(s), q) }
