package scenegraph

// One identity per thing. A name is one thing whichever part of an
// observation reports it (a detection, a state.<group>, held), whichever
// relation targets it and whichever effect names it: every path resolves a
// name through thing. A ref is minted once, by the first report of the name,
// with the prefix of the kind that report gives (a container under
// state.drawers, a place as a relation's target, an object otherwise), and
// every later report of the name, in any group, lands on that ref. Only
// detections tell instances of one name apart (two mugs), by id, position,
// support and room (see match); a state group's key, held and an effect
// name one thing, and a detection of a name a state group of the same
// observation reports is that thing.

// kindOfGroup is the kind of a thing first reported by state.<group>: a
// drawer holds things, so it is a container; a door, a lamp are objects.
func kindOfGroup(group string) NodeKind {
	if group == "drawers" {
		return KindContainer
	}
	return KindObject
}

// refPrefix is the prefix of a new ref of kind.
func refPrefix(kind NodeKind) string {
	switch kind {
	case KindContainer:
		return "container"
	case KindPlace:
		return "place"
	}
	return "obj"
}

// thing resolves a name or a ref to the node it names, nil when the graph
// has none: a ref as is; else, of the objects and containers of that name,
// the held one, else the closest, else the freshest (see nearest); else the
// place of that name.
func (g *Graph) thing(nameOrRef string) *node {
	if nameOrRef == "" {
		return nil
	}
	if n, ok := g.nodes[nameOrRef]; ok {
		return n
	}
	if ns := g.findByName(nameOrRef, KindObject, KindContainer); len(ns) > 0 {
		return g.nearest(ns)
	}
	if ns := g.findByName(nameOrRef, KindPlace); len(ns) > 0 {
		return g.nearest(ns)
	}
	return nil
}

// resolve is the thing a name or ref names, or a new one of kind (room and
// src its first facts) when the graph has none.
func (g *Graph) resolve(nameOrRef string, kind NodeKind, room string, src Source) *node {
	if n := g.thing(nameOrRef); n != nil {
		return n
	}
	return g.add(&node{ref: g.newRef(refPrefix(kind), nameOrRef), name: nameOrRef, kind: kind, room: room, seen: src})
}

// detectable are the nodes a detection of name may be: every thing of that
// name but the robot, in creation order (match picks the instance).
func (g *Graph) detectable(name string) []*node {
	return g.findByName(name, KindObject, KindContainer, KindPlace)
}

// sighted reports whether n's line is a sighting's: an object, or a
// container or place a camera saw. Its line then shows its position and
// ends with the sighting's stamp.
func (n *node) sighted() bool { return n.kind == KindObject || len(n.views) > 0 }
