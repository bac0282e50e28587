package schema

import (
	"fmt"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// ArgRead is one argument name a spec reads: `args.X` (or args["X"]) in an
// expression, a clamp's arg, a rewrite's key. thea validate --live checks
// it against the real input schemas of the tools it applies to.
type ArgRead struct {
	Path string // spec path of the expression or field
	Arg  string
	// Tool is the one tool the read applies to (a contract's check or
	// verify args); empty for a hook, which applies to what its when selects.
	Tool string
	// PreHook is the index of the pre-hook the read belongs to, or -1.
	PreHook int
}

// ArgReads lists every argument name the spec's rules read.
func (s *Spec) ArgReads() []ArgRead {
	var out []ArgRead
	add := func(path, src, tool string, hook int) {
		for _, a := range argsIn(src) {
			out = append(out, ArgRead{Path: path, Arg: a, Tool: tool, PreHook: hook})
		}
	}
	for i, h := range s.Hooks.Pre {
		p := indexPath("hooks.pre", i)
		add(p+".when", h.When, "", i)
		add(p+".rule", h.Rule, "", i)
		for _, k := range sortedKeys(h.Rewrite) {
			out = append(out, ArgRead{Path: p + ".rewrite." + k, Arg: k, PreHook: i})
			add(p+".rewrite."+k, h.Rewrite[k], "", i)
		}
		if h.Clamp != nil {
			out = append(out, ArgRead{Path: p + ".clamp.arg", Arg: h.Clamp.Arg, PreHook: i})
			add(p+".clamp.min", h.Clamp.Min, "", i)
			add(p+".clamp.max", h.Clamp.Max, "", i)
		}
	}
	for _, name := range sortedKeys(s.Tools) {
		c := s.Tools[name]
		add("tools."+name+".check", c.Check, name, -1)
		if c.Verify != nil {
			for _, k := range sortedKeys(c.Verify.Args) {
				add("tools."+name+".verify.args."+k, c.Verify.Args[k], name, -1)
			}
		}
	}
	return out
}

// RuleToolRefs lists the tool names rules compare tool.name with
// (`tool.name == 'x'`, `tool.name in ['x', 'y']`).
func (s *Spec) RuleToolRefs() []ToolRef {
	var out []ToolRef
	add := func(path, src string) {
		for _, n := range toolNamesIn(src) {
			out = append(out, ToolRef{Path: path, Ref: n})
		}
	}
	for i, h := range s.Hooks.Pre {
		p := indexPath("hooks.pre", i)
		add(p+".when", h.When)
		add(p+".rule", h.Rule)
	}
	for i, h := range s.Hooks.Post {
		add(fmt.Sprintf("hooks.post[%d].when", i), h.When)
	}
	return out
}

// argsIn lists the argument names an expression reads by a constant name.
func argsIn(src string) []string {
	if src == "" {
		return nil
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []string
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		if m, ok := n.(*ast.MemberNode); ok {
			if id, ok := m.Node.(*ast.IdentifierNode); ok && id.Value == "args" {
				if p, ok := m.Property.(*ast.StringNode); ok {
					out = append(out, p.Value)
				}
			}
		}
	}))
	return out
}

func toolNamesIn(src string) []string {
	if src == "" {
		return nil
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []string
	str := func(n ast.Node) {
		if s, ok := n.(*ast.StringNode); ok {
			out = append(out, s.Value)
		}
	}
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return
		}
		switch {
		case b.Operator == "in" && isToolField(b.Left, "name"):
			if arr, ok := b.Right.(*ast.ArrayNode); ok {
				for _, e := range arr.Nodes {
					str(e)
				}
			}
		case b.Operator == "==" || b.Operator == "!=":
			if isToolField(b.Left, "name") {
				str(b.Right)
			} else if isToolField(b.Right, "name") {
				str(b.Left)
			}
		}
	}))
	return out
}
