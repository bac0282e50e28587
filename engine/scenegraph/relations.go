package scenegraph

import "slices"

// The relations and their index by node. A node's rels are the relations
// its line renders (those it is the subject of, and the robot holding it),
// in the graph's order. link and unlink are the only ways relations come
// and go, and touchRel marks the one change to a linked relation a line
// renders (its source): each keeps the index and touches the nodes whose
// lines change (see lineCache).

// edges returns the relations of subject of the given kinds.
func (g *Graph) edges(subject string, kinds ...string) []*Relation {
	var out []*Relation
	if n := g.nodes[subject]; n != nil {
		for _, r := range n.rels {
			if r.Subject == subject && slices.Contains(kinds, r.Kind) {
				out = append(out, r)
			}
		}
	}
	return out
}

// touch records a change to what n's lines render.
func (g *Graph) touch(n *node) { n.ver++ }

// renderers are the nodes whose lines render r: its subject, and the held
// object of a holding relation (nil when none, or when it is the subject).
// Every relation names known refs only, and no relation's subject, kind
// or target changes once linked.
func (g *Graph) renderers(r *Relation) [2]*node {
	ns := [2]*node{g.nodes[r.Subject], nil}
	if r.Kind == RelHolding && r.Target != r.Subject {
		ns[1] = g.nodes[r.Target]
	}
	return ns
}

// link adds r to the relations; with drop it is the only way the
// relations come and go, so every node's index and version follows.
func (g *Graph) link(r *Relation) {
	g.rels = append(g.rels, r)
	for _, n := range g.renderers(r) {
		if n != nil {
			n.rels = append(n.rels, r)
			g.touch(n)
		}
	}
}

// touchRel records a change to r's source, the one field of a linked
// relation a line renders that may change.
func (g *Graph) touchRel(r *Relation) {
	for _, n := range g.renderers(r) {
		if n != nil {
			g.touch(n)
		}
	}
}

// unlink removes r from the relations; with link it is the only way the
// relations come and go.
func (g *Graph) unlink(r *Relation) {
	if i := slices.Index(g.rels, r); i >= 0 {
		g.rels = slices.Delete(g.rels, i, i+1)
	}
	for _, n := range g.renderers(r) {
		if n != nil {
			if i := slices.Index(n.rels, r); i >= 0 {
				n.rels = slices.Delete(n.rels, i, i+1)
			}
			g.touch(n)
		}
	}
}

// drop removes the relations of n (its index: those it is the subject of,
// and the robot holding it) for which f holds; f is called once for each,
// in order. It returns one of them for reuse, nil for none.
func (g *Graph) drop(n *node, f func(r *Relation) bool) (spare *Relation) {
	for i := 0; i < len(n.rels); {
		r := n.rels[i]
		if !f(r) {
			i++
			continue
		}
		g.unlink(r)
		if spare == nil {
			spare = r
		}
	}
	return spare
}

// setSupport makes subject rest kind (on, in) target, or near it; it ends
// any other support of the subject, its being held included.
func (g *Graph) setSupport(subject, kind, target string, src Source) {
	// Every relation the test holds for is in the subject's index.
	spare := g.drop(g.nodes[subject], func(r *Relation) bool {
		return r.Subject == subject && r.Kind != RelHolding || r.Kind == RelHolding && r.Target == subject
	})
	g.relate(spare, subject, kind, target, src)
}

// addSupport is setSupport for a subject that has no relation yet (a ref
// just made): nothing to end, so no pass over every relation.
func (g *Graph) addSupport(subject, kind, target string, src Source) {
	g.relate(nil, subject, kind, target, src)
}

// relate links a new relation, in r (one just dropped) when not nil: no
// pointer to a dropped relation is kept anywhere.
func (g *Graph) relate(r *Relation, subject, kind, target string, src Source) {
	if r == nil {
		r = &Relation{}
	}
	*r = Relation{Subject: subject, Kind: kind, Target: target, Source: src}
	g.link(r)
}

// hold makes the robot hold ref (or nothing when ref is ""); the held object
// loses its support and its position is the gripper's.
func (g *Graph) hold(ref string, src Source) {
	if prev := g.holding(); prev != "" && prev != ref {
		// Released where the robot is now, not where it was picked up.
		p := g.nodes[prev]
		p.pos, p.room = nil, keep(p.room, g.nodes[RobotRef].room)
		g.touch(p)
	}
	g.drop(g.nodes[RobotRef], func(r *Relation) bool { return r.Subject == RobotRef && r.Kind == RelHolding })
	g.emptyHand = Source{}
	if ref == "" {
		g.emptyHand = src
		return
	}
	g.drop(g.nodes[ref], func(r *Relation) bool { return r.Subject == ref && r.Kind != RelHolding })
	g.link(&Relation{Subject: RobotRef, Kind: RelHolding, Target: ref, Source: src})
	// In the gripper it is where the robot is.
	n := g.nodes[ref]
	n.pos, n.room = nil, keep(n.room, g.nodes[RobotRef].room)
	g.touch(n)
}

// holding is the ref the robot holds, "" for none.
func (g *Graph) holding() string {
	if r := g.firstEdge(RobotRef, RelHolding); r != nil {
		return r.Target
	}
	return ""
}

// firstEdge is the first of edges(subject, kind), nil for none.
func (g *Graph) firstEdge(subject, kind string) *Relation {
	if n := g.nodes[subject]; n != nil {
		for _, r := range n.rels {
			if r.Subject == subject && r.Kind == kind {
				return r
			}
		}
	}
	return nil
}

// setNear makes the robot near target. The relation is anchored at the
// first pose observed after it (where the call left the robot).
func (g *Graph) setNear(target string, src Source) {
	g.drop(g.nodes[RobotRef], func(r *Relation) bool { return r.Subject == RobotRef && r.Kind == RelNear })
	if target == "" {
		return
	}
	g.link(&Relation{Subject: RobotRef, Kind: RelNear, Target: target, Source: src})
}
