package rules

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm/runtime"
)

// A safety hook's rule that reads a missing value fails closed (see
// missing.go), unless the rule gives the value a default with `??` or reads
// it through `?.`. FailOpen finds where such a default makes the rule let
// the call through: it folds the expression with the value missing (the
// `??` giving its default, the `?.` nil), every other read unknown, and an
// expression that then certainly does not hold passes a missing reading.

// FailOpenRead is one read of observed data (observation, args) whose
// missing value makes an expression certainly false.
type FailOpenRead struct {
	// Line and Col are where the read starts in the expression (1-based).
	Line, Col int
	// Read is the value as the rule spells it (observation.state.door).
	Read string
	// How says what the rule reads for it ("its ?? default", "?. reads nil").
	How string
}

// FailOpen returns the reads of src whose missing value makes it certainly
// false; none when src does not parse (the compiler reports that).
func FailOpen(src string) []FailOpenRead {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []FailOpenRead
	for _, site := range defaultSites(tree.Node) {
		v, known := fold(tree.Node, site.node, site.def)
		if b, isBool := v.(bool); !known || !isBool || b {
			continue
		}
		line, col := offsetPos(src, site.at.Location().From)
		out = append(out, FailOpenRead{Line: line, Col: col, Read: site.read, How: site.how})
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
