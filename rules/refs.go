package rules

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// RefKind is what a name a rule mentions stands for.
type RefKind int

const (
	// RefTag is a tool tag: 'x' in tool.tags.
	RefTag RefKind = iota + 1
	// RefTool is a tool name: tool.name == 'x', tool.name in ['x', 'y'].
	RefTool
	// RefArg is an argument read by a constant name: args.x, args["x"].
	RefArg
)

// Ref is one name an expression mentions, and where (1-based, inside the
// expression), so the spec can check it against what it declares.
type Ref struct {
	Kind      RefKind
	Name      string
	Line, Col int
}

// Refs lists the tags and tool names src compares the called tool with, in
// the order they are written; none when src does not parse. It reads the
// parsed (not optimised) tree so `tool.name in ['a', 'b']` keeps its
// literals.
func Refs(src string) []Ref {
	if src == "" {
		return nil
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []Ref
	add := func(kind RefKind, n ast.Node) {
		if s, ok := n.(*ast.StringNode); ok {
			line, col := offsetPos(src, s.Location().From)
			out = append(out, Ref{Kind: kind, Name: s.Value, Line: line, Col: col})
		}
	}
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return
		}
		switch {
		case b.Operator == "in" && isToolField(b.Right, "tags"):
			add(RefTag, b.Left)
		case b.Operator == "in" && isToolField(b.Left, "name"):
			if arr, ok := b.Right.(*ast.ArrayNode); ok {
				for _, e := range arr.Nodes {
					add(RefTool, e)
				}
			}
		case b.Operator == "==" || b.Operator == "!=":
			if isToolField(b.Left, "name") {
				add(RefTool, b.Right)
			} else if isToolField(b.Right, "name") {
				add(RefTool, b.Left)
			}
		}
	}))
	return out
}

// Args lists the argument names src reads by a constant name.
func Args(src string) []Ref {
	if src == "" {
		return nil
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []Ref
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		if m, ok := n.(*ast.MemberNode); ok {
			if id, ok := m.Node.(*ast.IdentifierNode); ok && id.Value == "args" {
				if p, ok := m.Property.(*ast.StringNode); ok {
					line, col := offsetPos(src, p.Location().From)
					out = append(out, Ref{Kind: RefArg, Name: p.Value, Line: line, Col: col})
				}
			}
		}
	}))
	return out
}

// isToolField reports whether n is `tool.<field>` (or `tool["field"]`).
func isToolField(n ast.Node, field string) bool {
	m, ok := n.(*ast.MemberNode)
	if !ok {
		return false
	}
	id, ok := m.Node.(*ast.IdentifierNode)
	if !ok || id.Value != "tool" {
		return false
	}
	p, ok := m.Property.(*ast.StringNode)
	return ok && p.Value == field
}
