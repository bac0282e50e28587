package scenegraph

// MarkAllUnconfirmed marks every fact of the graph but places unconfirmed
// at turn: the robot was out of the harness's hands (an operator drove it,
// or a session resumed after a crash), so anything may have changed. The
// next observation clears the mark on what it reports again. It returns the
// refs it marked, in graph order.
func (g *Graph) MarkAllUnconfirmed(turn int) []string {
	g.turn = max(g.turn, turn)
	var refs []string
	for _, n := range g.order {
		if n.kind == KindPlace {
			continue
		}
		refs = append(refs, n.ref)
		if n.unconfirmed == 0 {
			n.unconfirmed = turn
			g.touch(n)
		}
	}
	return refs
}
