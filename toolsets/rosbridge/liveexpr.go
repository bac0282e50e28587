package rosbridge

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// The live check's reading of exprs: the field chains an expr reads
// (msg.pose.pose.position.x) and the fields a map literal builds
// ({linear: {x: …}}), each looked up in its message's definition.

// reads checks the fields src reads of msg, a message of typ.
func (lc *liveChecker) reads(at, src, typ string) {
	lc.readsRoot(at, src, "msg", "/rosapi/message_details", typ)
}

// readsDetails checks what src reads of a service's response.
func (lc *liveChecker) readsDetails(at, src, service, typ string) {
	lc.readsRoot(at, src, "response", service, typ)
}

func (lc *liveChecker) readsRoot(at, src, variable, service, typ string) {
	root, skip, err := lc.g.Details(service, typ)
	if err != nil {
		lc.fail(at, "%v", err)
		return
	}
	if root == "" {
		lc.warn(at, "the fields this reads of %s are not checked: %s", typ, skip)
		return
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return // validate reports it at the field
	}
	seen := map[string]bool{}
	node := tree.Node
	ast.Walk(&node, visitor(func(n ast.Node) {
		chain := memberChain(n, variable)
		if len(chain) == 0 {
			return
		}
		if why := resolve(lc.g, root, variable, chain); why != "" && !seen[why] {
			seen[why] = true
			lc.fail(at, "%s", why)
		}
	}))
}

// memberChain is the fields n reads of variable, outermost last ("[]" for
// an index), or nil when n is not such a read.
func memberChain(n ast.Node, variable string) []string {
	var rev []string
	for {
		switch m := n.(type) {
		case *ast.MemberNode:
			if s, ok := m.Property.(*ast.StringNode); ok {
				rev = append(rev, s.Value)
			} else {
				rev = append(rev, "[]")
			}
			n = m.Node
		case *ast.ChainNode:
			n = m.Node
		case *ast.IdentifierNode:
			if m.Value != variable {
				return nil
			}
			out := make([]string, len(rev))
			for i, f := range rev {
				out[len(rev)-1-i] = f
			}
			return out
		default:
			return nil
		}
	}
}

// resolve follows chain from the message root; it says why a step does
// not exist, or "" (also when a step's type has no definition to check).
func resolve(g *graph.Rosapi, root, variable string, chain []string) string {
	cur, array := root, false
	for i, f := range chain {
		if f == "[]" {
			if !array {
				return "" // an index into a string or a map: not a field question
			}
			array = false
			continue
		}
		if array {
			return fmt.Sprintf("%s.%s: %s is an array; index it first", variable, strings.Join(chain[:i], "."), chain[i-1])
		}
		d, ok := g.Def(cur)
		if !ok {
			return ""
		}
		typ, arr, ok := d.Field(f)
		if !ok {
			return fmt.Sprintf("%s.%s: %s has no field %q (its fields: %s)", variable, strings.Join(chain[:i+1], "."), cur, f, d.FieldList())
		}
		cur, array = typ, arr
	}
	return ""
}

// builds checks the fields a map-literal expr builds against the type
// rosapi's details service describes (a goal, a request, a message). What
// it cannot check is a warning at the expr's field.
func (lc *liveChecker) builds(at, src, service, typ string) {
	tree, err := parser.Parse(src)
	if err != nil {
		return // validate reports it at the field
	}
	m, ok := tree.Node.(*ast.MapNode)
	if !ok {
		lc.warn(at, "the fields of this %s are not checked: it is not built by a map literal ({field: …}), so only a live call can tell", typ)
		return
	}
	root, skip, err := lc.g.Details(service, typ)
	if err != nil {
		lc.fail(at, "%v", err)
		return
	}
	if root == "" {
		lc.warn(at, "the fields this builds of %s are not checked: %s", typ, skip)
		return
	}
	lc.checkMap(at, m, root, "")
}

func (lc *liveChecker) checkMap(at string, m *ast.MapNode, typ, prefix string) {
	d, ok := lc.g.Def(typ)
	if !ok {
		return
	}
	for _, n := range m.Pairs {
		pair, ok := n.(*ast.PairNode)
		if !ok {
			continue
		}
		key, ok := pair.Key.(*ast.StringNode)
		if !ok {
			continue
		}
		ft, array, ok := d.Field(key.Value)
		if !ok {
			lc.fail(at, "%s has no field %q, which this builds as %s (its fields: %s)", typ, key.Value, prefix+key.Value, d.FieldList())
			continue
		}
		path := prefix + key.Value
		if !array {
			if sub, ok := pair.Value.(*ast.MapNode); ok {
				lc.checkMap(at, sub, ft, path+".")
			}
			continue
		}
		// An array of messages: each element a map literal, or map() over
		// a list with a map literal (a trajectory's points from args).
		for _, el := range elements(pair.Value) {
			lc.checkMap(at, el, ft, path+"[].")
		}
	}
}

// elements are the map literals that build an array's elements: those of
// an array literal, or the body of map(list, {…}).
func elements(n ast.Node) []*ast.MapNode {
	var out []*ast.MapNode
	switch v := n.(type) {
	case *ast.ArrayNode:
		for _, e := range v.Nodes {
			if m, ok := e.(*ast.MapNode); ok {
				out = append(out, m)
			}
		}
	case *ast.BuiltinNode:
		if v.Name == "map" && len(v.Arguments) == 2 {
			if c, ok := v.Arguments[1].(*ast.PredicateNode); ok {
				if m, ok := c.Node.(*ast.MapNode); ok {
					out = append(out, m)
				}
			}
		}
	}
	return out
}
