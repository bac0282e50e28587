package scenegraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/world"
)

// Entry is one ref as the look-up tools return it.
type Entry struct {
	Ref   string   `json:"ref"`
	Kind  NodeKind `json:"kind"`
	Name  string   `json:"name"`
	Class string   `json:"class,omitempty"`
	// Relation and Target are the ref's support (on, in, near; "held" with
	// target robot when the robot holds it).
	Relation string       `json:"relation,omitempty"`
	Target   string       `json:"target,omitempty"`
	State    string       `json:"state,omitempty"`
	Room     string       `json:"room,omitempty"`
	Position *world.Point `json:"position,omitempty"`
	Frame    string       `json:"frame"`
	// Source is where the ref was last confirmed (tool and camera, or call).
	Source string `json:"source"`
	// SeenTurn is the current task's turn it was last confirmed at; one
	// confirmed in an earlier task has SeenTask instead.
	SeenTurn int     `json:"seen_turn,omitempty"`
	SeenTask int     `json:"seen_task,omitempty"`
	Stale    bool    `json:"stale,omitempty"`
	DistM    float64 `json:"distance_m,omitempty"`
}

// support is where a ref is: "held" by the robot, or its first relation.
type support struct{ relation, target string }

// supports indexes every ref's support in one pass over the relations (a
// look-up over thousands of refs must not scan them per ref). Being held
// wins over any other relation.
func (g *Graph) supports() map[string]support {
	m := map[string]support{}
	for _, r := range g.rels {
		switch {
		case r.Kind == RelHolding:
			m[r.Target] = support{"held", RobotRef}
		default:
			if _, set := m[r.Subject]; !set {
				m[r.Subject] = support{r.Kind, r.Target}
			}
		}
	}
	return m
}

func (g *Graph) entry(n *node, sups map[string]support) Entry {
	e := Entry{Ref: n.ref, Kind: n.kind, Name: n.name, Class: n.class, State: n.state, Room: n.room,
		Frame: g.frame, Source: g.short(n.seen), DistM: n.distM}
	seen := g.shown(n.seen)
	e.SeenTurn, e.SeenTask = seen.Turn, seen.Task
	e.Stale = n.seen.Kind != "" && g.stale(n.seen.Turn)
	if n.pos != nil {
		p := *n.pos
		e.Position = &p
	}
	if s, ok := sups[n.ref]; ok {
		e.Relation, e.Target = s.relation, s.target
		if s.relation == "held" {
			// In the gripper it is where the robot is.
			e.Room, e.Position = keep(e.Room, g.nodes[RobotRef].room), nil
		}
	}
	return e
}

// Get returns one ref's entry.
func (g *Graph) Get(ref string) (Entry, bool) {
	n, ok := g.nodes[ref]
	if !ok {
		return Entry{}, false
	}
	return g.entry(n, g.supports()), true
}

// Lookup returns the refs whose name, class, room, support target or ref
// contains query (case-insensitive), freshest first. An empty query matches
// all.
func (g *Graph) Lookup(query string) []Entry {
	q := strings.ToLower(strings.TrimSpace(query))
	var out []Entry
	sups := g.supports()
	for _, n := range g.sortedNodes() {
		e := g.entry(n, sups)
		if q == "" || contains(e.Name, q) || contains(e.Class, q) || contains(e.Room, q) || contains(e.Target, q) || contains(e.Ref, q) {
			out = append(out, e)
		}
	}
	return out
}

func contains(s, q string) bool { return strings.Contains(strings.ToLower(s), q) }

// Refs lists every ref, the robot first, then as the Brief orders them.
func (g *Graph) Refs() []string {
	out := []string{RobotRef}
	for _, n := range g.sortedNodes() {
		out = append(out, n.ref)
	}
	return out
}

// Known checks refs against the graph: the error names the unknown ones and
// lists the known refs, the first DefaultMaxRefs in the Brief's order.
func (g *Graph) Known(refs ...string) error {
	var bad []string
	for _, r := range refs {
		if _, ok := g.nodes[r]; !ok {
			bad = append(bad, fmt.Sprintf("%q", r))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	known := g.Refs()
	more := ""
	if len(known) > DefaultMaxRefs {
		more = fmt.Sprintf(" … and %s more (scene_lookup finds them)", thousands(len(known)-DefaultMaxRefs))
		known = known[:DefaultMaxRefs]
	}
	return fmt.Errorf("unknown scene-graph ref %s; known refs: %s%s", strings.Join(bad, ", "), strings.Join(known, ", "), more)
}

// Describe is a ref's Brief line (for a question's candidates).
func (g *Graph) Describe(ref string) (string, error) {
	if err := g.Known(ref); err != nil {
		return "", err
	}
	if ref == RobotRef {
		return g.robotLine(), nil
	}
	return g.line(g.nodes[ref]), nil
}

// Relations returns the relations ref takes part in (as subject or target),
// of one kind when kind is not empty ("held" reads as holding), with
// provenance and freshness. An unknown ref or kind is an error.
func (g *Graph) Relations(ref, kind string) ([]Relation, error) {
	if err := g.Known(ref); err != nil {
		return nil, err
	}
	if kind == "held" {
		kind = RelHolding
	}
	if kind != "" && !slices.Contains([]string{RelOn, RelIn, RelNear, RelHolding}, kind) {
		return nil, fmt.Errorf("unknown relation %q (want on, in, near or holding)", kind)
	}
	g.markStale()
	out := []Relation{}
	for _, r := range g.rels {
		if (r.Subject == ref || r.Target == ref) && (kind == "" || r.Kind == kind) {
			x := *r
			x.Source = g.shown(x.Source)
			out = append(out, x)
		}
	}
	return out, nil
}

// View is a ref's last view: the image of the camera that last saw it. Only
// the last image of each camera is kept, so when that camera has taken a
// newer image since, the view is gone and the error says so.
type View struct {
	Ref    string      `json:"ref"`
	Camera string      `json:"camera"`
	Turn   int         `json:"turn"`
	Image  world.Image `json:"-"`
}

// View returns the stored view of ref.
func (g *Graph) View(ref string) (View, error) {
	if err := g.Known(ref); err != nil {
		return View{}, err
	}
	n := g.nodes[ref]
	if len(n.views) == 0 {
		return View{}, fmt.Errorf("%s has never been seen by a camera (it is known from %s)", ref, orWord(g.short(n.seen), "a confirmed call"))
	}
	cams := make([]string, 0, len(n.views))
	for c := range n.views {
		cams = append(cams, c)
	}
	// The camera that saw it last; of equals, the first by name.
	slices.SortFunc(cams, func(a, b string) int {
		if n.views[a] != n.views[b] {
			return n.views[b] - n.views[a]
		}
		return strings.Compare(a, b)
	})
	for _, c := range cams {
		if img, ok := g.images[c]; ok && img.turn == n.views[c] {
			return View{Ref: ref, Camera: c, Turn: g.shown(Source{Kind: "observation", Turn: img.turn}).Turn, Image: img.img}, nil
		}
	}
	c := cams[0]
	return View{}, fmt.Errorf("%s was last seen by the %s camera at %s; that view was replaced by a newer image without it: look again to get a fresh view", ref, c, g.appendSince(nil, n.views[c]))
}

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
