package scenegraph

import (
	"slices"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// After a physical call without a success verdict (no evaluator judged it,
// or the verdict says the action is still under way) the world may have
// changed in ways no one confirmed. The Brief keeps the last confirmed facts
// but marks the ones the call may have changed "unconfirmed since turn N"
// (A15: a claim after a manipulation is never a stale pre-call state passed
// off as the present). An observation that reports the thing again, or a
// confirmed call's effect on it, clears the mark.

// Unverified reports whether a call's outcome leaves what it touched
// unconfirmed: an executed physical call with no verdict, or a process one.
// A success verdict confirms the effects; a failure verdict is the
// evaluator's judgement on fresh evidence, which the next observation
// brings into the graph.
func Unverified(physical bool, v *world.Verdict) bool {
	return physical && (v == nil || v.Status == world.VerdictProcess)
}

// MarkUnconfirmed marks, at turn, the facts a call may have changed: the
// things its effects name (evaluated against env; an effect that cannot be
// evaluated names nothing), the known things its string arguments name, the
// object the robot holds, and what the robot holds. It returns the refs it
// marked (the robot's hand as "robot"), in graph order.
func (g *Graph) MarkUnconfirmed(turn int, effs []schema.CompiledEffect, env *schema.CheckEnv) []string {
	g.turn = max(g.turn, turn)
	var names []string
	hand := false
	for _, e := range effs {
		ops, err := Evaluate([]schema.CompiledEffect{e}, env)
		if err != nil || len(ops) == 0 {
			continue
		}
		op := ops[0]
		switch op.Op {
		case schema.OpSetHolding, schema.OpClearHolding:
			hand = true
		case schema.OpSetNear, schema.OpClearNear:
			names = append(names, RobotRef)
		}
		names = append(names, op.Of, op.To)
	}
	if env != nil {
		for _, v := range env.Args {
			switch v := v.(type) {
			case string:
				names = append(names, v)
			case []any:
				for _, x := range v {
					if s, ok := x.(string); ok {
						names = append(names, s)
					}
				}
			}
		}
	}
	marked := map[*node]bool{}
	for _, name := range names {
		if n := g.known(name); n != nil && n.kind != KindPlace {
			marked[n] = true
		}
	}
	if held := g.holding(); held != "" {
		marked[g.nodes[held]] = true
		hand = true
	}
	if hand {
		marked[g.nodes[RobotRef]] = true
	}
	return g.mark(turn, func(n *node) bool { return marked[n] })
}

// MarkAllUnconfirmed marks every fact of the graph but places unconfirmed
// at turn: the robot was out of the harness's hands (an operator drove it,
// or a session resumed after a crash), so anything may have changed. The
// next observation clears the mark on what it reports again. It returns the
// refs it marked, in graph order.
func (g *Graph) MarkAllUnconfirmed(turn int) []string {
	g.turn = max(g.turn, turn)
	return g.mark(turn, func(n *node) bool { return n.kind != KindPlace })
}

// mark is the one way a fact becomes unconfirmed: each node chosen is
// marked at turn (one marked already keeps its earlier turn, the first
// moment it went unconfirmed). It returns the refs chosen, in graph order.
func (g *Graph) mark(turn int, chosen func(*node) bool) []string {
	var refs []string
	for _, n := range g.order {
		if !chosen(n) {
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

// known resolves a name or ref to a node the graph already has (no new
// ref), nil when there is none.
func (g *Graph) known(nameOrRef string) *node { return g.thing(nameOrRef) }

// confirm clears n's unconfirmed mark: new evidence about it.
func (g *Graph) confirm(n *node) {
	if n.unconfirmed != 0 {
		n.unconfirmed = 0
		g.touch(n)
	}
}

// Unconfirmed returns the refs marked unconfirmed and the turn of each mark
// ("robot" stands for what the robot holds).
func (g *Graph) Unconfirmed() map[string]int {
	out := map[string]int{}
	for _, n := range g.order {
		if n.unconfirmed != 0 {
			out[n.ref] = n.unconfirmed
		}
	}
	return out
}

// unconfirmedRefs lists the marked refs in graph order (for tests).
func (g *Graph) unconfirmedRefs() []string {
	var out []string
	for _, n := range g.order {
		if n.unconfirmed != 0 {
			out = append(out, n.ref)
		}
	}
	return slices.Clip(out)
}
