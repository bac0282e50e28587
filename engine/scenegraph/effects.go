package scenegraph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/schema"
)

// Op is one effect with its expressions evaluated: names or refs, a
// relation kind, a state.
type Op struct {
	Op   schema.EffectOp
	Of   string
	Kind string
	To   string
	// Path is the effect's spec path, for messages.
	Path string
}

// Evaluate runs a tool's compiled effects against the call's environment.
// Every value must be a non-empty string (a relation kind one of on, in,
// near); the first that is not is an error naming its spec path, and then
// no effect of the call applies.
func Evaluate(effs []schema.CompiledEffect, env *schema.CheckEnv) ([]Op, error) {
	ops := make([]Op, 0, len(effs))
	for _, e := range effs {
		op := Op{Op: e.Op, Kind: e.Kind, Path: e.Path}
		var err error
		if op.Of, err = str(e.Path+".of", e.Of, env); err == nil {
			op.To, err = str(e.Path+".to", e.To, env)
		}
		if err == nil && e.KindExpr != nil {
			op.Kind, err = str(e.Path+".kind", e.KindExpr, env)
		}
		if err == nil && op.Kind != "" && !schema.IsRelationKind(op.Kind) {
			err = fmt.Errorf("%s.kind: relation %q is not on, in or near", e.Path, op.Kind)
		}
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// str runs one effect expression; nil means the effect has no such field.
func str(path string, p *vm.Program, env *schema.CheckEnv) (string, error) {
	if p == nil {
		return "", nil
	}
	out, err := rules.Run(nil, p, env)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	s, ok := out.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%s: want a non-empty name or ref, got %v (%T)", path, out, out)
	}
	return s, nil
}

// ErrApplied: the call's effects were applied already.
var ErrApplied = errors.New("effects already applied for this call")

// Apply makes the changes of one confirmed call, all or none, once per key
// (the call's turn and id): a second Apply with the same key changes
// nothing and returns ErrApplied. Names resolve to refs as observations do
// (a ref as is; else of several same-name objects the held one, else the
// closest to the robot); an unknown name gets a new ref whose provenance is
// the call. It returns one line per change.
func (g *Graph) Apply(key string, src Source, ops []Op) ([]string, error) {
	if _, done := g.applied[key]; done {
		return nil, ErrApplied
	}
	for _, op := range ops {
		if err := op.valid(); err != nil {
			return nil, err
		}
	}
	// A call is applied in its own turn: keys of earlier turns are dropped,
	// so the record stays small over a long session.
	for k, turn := range g.applied {
		if turn < src.Turn {
			delete(g.applied, k)
		}
	}
	g.applied[key] = src.Turn
	g.turn = max(g.turn, src.Turn)
	var lines []string
	for _, op := range ops {
		lines = append(lines, g.apply(op, src))
	}
	return lines, nil
}

func (op Op) valid() error {
	need := map[schema.EffectOp][]string{
		schema.OpSetHolding: {op.To}, schema.OpSetNear: {op.To}, schema.OpSetState: {op.Of, op.To},
		schema.OpAddRelation: {op.Of, op.Kind, op.To}, schema.OpRemoveRelation: {op.Of},
		schema.OpClearHolding: {}, schema.OpClearNear: {},
	}
	vals, ok := need[op.Op]
	if !ok {
		return fmt.Errorf("%s: unknown effect %q", op.Path, op.Op)
	}
	if slices.Contains(vals, "") {
		return fmt.Errorf("%s: %q is missing a value", op.Path, op.Op)
	}
	return nil
}

func (g *Graph) apply(op Op, src Source) string {
	switch op.Op {
	case schema.OpSetHolding:
		n := g.object(op.To, src)
		n.seen = src
		g.touch(n)
		g.confirm(n)
		g.confirm(g.nodes[RobotRef])
		g.hold(n.ref, src)
		return "robot holding " + n.ref
	case schema.OpClearHolding:
		g.confirm(g.nodes[RobotRef])
		g.hold("", src)
		return "robot holding nothing"
	case schema.OpSetNear:
		t := g.place(op.To, "", src)
		g.setNear(t.ref, src)
		return "robot near " + t.ref
	case schema.OpClearNear:
		g.setNear("", src)
		return "robot near nothing"
	case schema.OpSetState:
		n := g.stateful(op.Of, KindContainer, src)
		n.state, n.stateSrc, n.seen = op.To, src, src
		g.touch(n)
		g.confirm(n)
		return n.ref + " " + op.To
	case schema.OpAddRelation:
		n := g.object(op.Of, src)
		t := g.place(op.To, "", src)
		n.seen = src
		if op.Kind != RelNear {
			// Moved by the call: its old position no longer holds.
			n.pos = nil
		}
		g.touch(n)
		g.confirm(n)
		g.setSupport(n.ref, op.Kind, t.ref, src)
		return n.ref + " " + op.Kind + " " + t.ref
	case schema.OpRemoveRelation:
		n := g.object(op.Of, src)
		var gone []string
		g.drop(n, func(r *Relation) bool {
			if r.Subject == n.ref && r.Kind != RelHolding && (op.Kind == "" || r.Kind == op.Kind) {
				gone = append(gone, n.ref+" "+r.Kind+" "+r.Target+" removed")
				return true
			}
			return false
		})
		if len(gone) == 0 {
			return n.ref + ": no " + strings.TrimSpace(op.Kind+" relation") + " to remove"
		}
		return strings.Join(gone, "; ")
	}
	return ""
}
