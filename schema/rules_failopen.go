package schema

import (
	"fmt"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm/runtime"
)

// A safety hook's rule that reads a missing value fails closed (see
// rules_missing.go), unless the rule gives the value a default with `??`
// or reads it through `?.`. failOpen finds where such a default makes the
// hook let the call through: it folds the hook's when or rule with the
// value missing (the `??` giving its default, the `?.` nil), every other
// read unknown, and a rule that then certainly does not hold (or a when
// that does not) passes a missing reading.

// safetyActions are the hook actions whose rule holding is the safe side.
var safetyActions = map[string]string{
	"block":   "the call is not blocked",
	"confirm": "the user is not asked",
	"clamp":   "the call is not clamped",
}

// FailOpenRules returns a warning (as a RuleError) for each read in a
// block, confirm or clamp hook's when or rule whose missing value lets the
// call through.
func FailOpenRules(s *Spec) []RuleError {
	var out []RuleError
	for i, h := range s.Hooks.Pre {
		outcome, ok := safetyActions[h.Action]
		if !ok {
			continue
		}
		for _, e := range []struct{ field, src string }{{"when", h.When}, {"rule", h.Rule}} {
			if e.src == "" {
				continue
			}
			tree, err := parser.Parse(e.src)
			if err != nil {
				continue // the compiler reports it
			}
			path := fmt.Sprintf("hooks.pre[%d].%s", i, e.field)
			for _, site := range defaultSites(tree.Node) {
				v, known := fold(tree.Node, site.node, site.def)
				if b, isBool := v.(bool); !known || !isBool || b {
					continue
				}
				line, col := offsetPos(e.src, site.at.Location().From)
				out = append(out, RuleError{Path: path, Line: line, Col: col, Message: fmt.Sprintf(
					"with %s missing this %s does not hold (%s), so %s: a missing safety reading should fail closed; "+
						"drop the default or the ?. (a rule reading a missing value then fails closed), or give a default that holds",
					site.read, e.field, site.how, outcome)})
			}
		}
	}
	return out
}

// site is one read that a missing value does not fail: node reads def
// when the value is missing.
type site struct {
	node ast.Node
	at   ast.Node // where the read starts, for the warning's position
	def  ast.Node // nil: reads nil
	read string   // the value as the rule spells it
	how  string
}

// defaultSites finds the `x ?? d` and `x?.y` over observed data (observation, args).
func defaultSites(root ast.Node) []site {
	var out []site
	ast.Walk(&root, visitFunc(func(n ast.Node) {
		switch n := n.(type) {
		case *ast.BinaryNode:
			if r, ok := observedRead(n.Left); ok && n.Operator == "??" {
				out = append(out, site{node: n, at: chainStart(n.Left), def: n.Right, read: r, how: "its ?? default"})
			}
		case *ast.MemberNode:
			if r, ok := observedRead(n); ok && n.Optional {
				out = append(out, site{node: n, at: chainStart(n), read: r, how: "?. reads nil"})
			}
		}
	}))
	return out
}

// chainStart is the root identifier of a member chain.
func chainStart(n ast.Node) ast.Node {
	for {
		m, ok := n.(*ast.MemberNode)
		if !ok {
			return n
		}
		n = m.Node
	}
}

// observedRead spells a member chain rooted at observation or args.
func observedRead(n ast.Node) (string, bool) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		return n.Value, n.Value == "observation" || n.Value == "args"
	case *ast.MemberNode:
		base, ok := observedRead(n.Node)
		if !ok {
			return "", false
		}
		if p, isStr := n.Property.(*ast.StringNode); isStr {
			return base + "." + p.Value, true
		}
		return base + "[…]", true
	}
	return "", false
}

// fold evaluates n with site reading def (nil when def is nil) and every
// other read unknown: known is false when the value depends on one.
func fold(n, at, def ast.Node) (v any, known bool) {
	if n == at {
		if def == nil {
			return nil, true
		}
		return fold(def, nil, nil)
	}
	switch n := n.(type) {
	case *ast.BoolNode:
		return n.Value, true
	case *ast.IntegerNode:
		return n.Value, true
	case *ast.FloatNode:
		return n.Value, true
	case *ast.StringNode:
		return n.Value, true
	case *ast.NilNode:
		return nil, true
	case *ast.UnaryNode:
		x, ok := fold(n.Node, at, def)
		if b, isBool := x.(bool); ok && isBool && (n.Operator == "!" || n.Operator == "not") {
			return !b, true
		}
		return nil, false
	case *ast.ConditionalNode:
		c, ok := fold(n.Cond, at, def)
		if b, isBool := c.(bool); ok && isBool {
			if b {
				return fold(n.Exp1, at, def)
			}
			return fold(n.Exp2, at, def)
		}
		return nil, false
	case *ast.ChainNode:
		return fold(n.Node, at, def)
	case *ast.MemberNode:
		// A chain through the site: `(x ?? d).y` is not folded.
		return nil, false
	case *ast.BinaryNode:
		l, lk := fold(n.Left, at, def)
		r, rk := fold(n.Right, at, def)
		lb, lIsBool := l.(bool)
		rb, rIsBool := r.(bool)
		switch n.Operator {
		case "&&", "and":
			switch {
			case lk && lIsBool && !lb, rk && rIsBool && !rb:
				return false, true
			case lk && rk && lIsBool && rIsBool:
				return true, true
			}
			return nil, false
		case "||", "or":
			switch {
			case lk && lIsBool && lb, rk && rIsBool && rb:
				return true, true
			case lk && rk && lIsBool && rIsBool:
				return false, true
			}
			return nil, false
		case "??":
			if lk && l != nil {
				return l, true
			}
			if lk {
				return r, rk
			}
			return nil, false
		}
		if !lk || !rk {
			return nil, false
		}
		return compare(n.Operator, l, r)
	}
	return nil, false
}

// compare is expr's own comparison of two constants; not known when expr
// would fail on them.
func compare(op string, l, r any) (v any, known bool) {
	defer func() {
		if recover() != nil {
			v, known = nil, false
		}
	}()
	switch op {
	case "==":
		return runtime.Equal(l, r), true
	case "!=":
		return !runtime.Equal(l, r), true
	case "<":
		return runtime.Less(l, r), true
	case ">":
		return runtime.More(l, r), true
	case "<=":
		return runtime.LessOrEqual(l, r), true
	case ">=":
		return runtime.MoreOrEqual(l, r), true
	}
	return nil, false
}
