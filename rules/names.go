package rules

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/thea-harness/thea/internal/didyoumean"
)

// Rules read the body's own names: the clearance sectors and the extra
// limits the embodiment declares. They are not Go struct fields, so expr
// cannot check them by itself; Names checks every field a rule reads
// (with "did you mean" from the same env's names, never a Go type name) and
// patches `clearance.<sector>` into `clearance.sectors["<sector>"]` and
// `limits.<extra>` into `limits.extra["<extra>"]`, both typed float64.
//
// A generated struct type (reflect.StructOf) would have made expr check the
// names itself, but every env would then be built by reflection at run time,
// and expr's messages would name the generated type; a check of our own over
// the parsed rule keeps the envs plain Go structs and the messages ours.
type Names struct {
	// Sectors maps every sector name and alias to the sector's name.
	Sectors map[string]string
	// Extra are the limits declared beside the fixed ones; Limits are all
	// the limits a rule may read, for messages.
	Extra, Limits []string
	// Readings maps each declared safety reading to its type.
	Readings map[string]string
	// Open accepts every sector and limit name: the embodiment is broken,
	// so which names it declares is unknown.
	Open bool
	// Types are the Go types of the environments that hold these names.
	Types Types
}

// Types name the Go types of an environment whose fields are the body's
// names, so the checker knows where a sector or a limit is read.
type Types struct {
	// Clearance is the type of `clearance` (sectors as its fields).
	Clearance reflect.Type
	// Sectored is a map keyed by sector (an observation's clearance).
	Sectored reflect.Type
	// Limits is the type of `limits` (the extra limits as its fields).
	Limits reflect.Type
	// Describe is how a message names a Go type of an env: its expr path.
	Describe map[reflect.Type]string
}

// check walks the parsed rule and returns the first unknown field it reads,
// as a message and a rune offset in src; "" when every field is known.
func (b Names) check(src string, env reflect.Type) (msg string, offset int) {
	tree, err := parser.Parse(src)
	if err != nil {
		return "", 0 // expr reports syntax errors itself
	}
	var first struct {
		msg string
		at  int
	}
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		if first.msg != "" {
			return
		}
		switch n := n.(type) {
		case *ast.MemberNode:
			if msg := b.readingName(n); msg != "" {
				first.msg, first.at = msg, n.Property.Location().From
			} else if _, msg := b.typeOf(n, env); msg != "" {
				first.msg, first.at = msg, n.Property.Location().From
			} else if lit, ok := b.sectorLiteral(n.Node, "sectors", n.Property); ok {
				first.msg, first.at = b.unknownSector(fmt.Sprintf("clearance.sectors[%q]", lit.Value), lit), lit.Location().From
			}
		case *ast.CallNode:
			for _, fn := range []string{"toward", "admissible"} {
				if len(n.Arguments) != 1 {
					break
				}
				if lit, ok := b.sectorLiteral(n.Callee, fn, n.Arguments[0]); ok {
					first.msg, first.at = b.unknownSector(fmt.Sprintf("clearance.%s(%q)", fn, lit.Value), lit), lit.Location().From
				} else if chain(n.Callee) == "clearance."+fn && notText(n.Arguments[0]) {
					first.msg, first.at = fmt.Sprintf("clearance.%s takes a sector's name (text), not a number, a bool or nil; its sectors are %s",
						fn, strings.Join(b.sectorList(), ", ")), n.Arguments[0].Location().From
				}
			}
		}
	}))
	return first.msg, first.at
}

// sectorLiteral reports a string literal naming no sector of the embodiment
// where a sector is expected: clearance.<fn>('x') or clearance.sectors['x']
// (a name read at run time, an argument, is checked when it runs).
func (b Names) sectorLiteral(on ast.Node, fn string, arg ast.Node) (*ast.StringNode, bool) {
	if b.Open || chain(on) != "clearance."+fn {
		return nil, false
	}
	lit, ok := arg.(*ast.StringNode)
	if !ok {
		return nil, false
	}
	_, known := b.Sectors[lit.Value]
	return lit, !known
}

// notText reports a literal that can never name a sector.
func notText(n ast.Node) bool {
	switch n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode:
		return true
	}
	return false
}

func (b Names) unknownSector(what string, lit *ast.StringNode) string {
	return fmt.Sprintf("%s: %q is not a clearance sector of the embodiment%s; its sectors are %s (an undeclared sector reads 0 m)",
		what, lit.Value, didyoumean.Suggest(lit.Value, mapKeys(b.Sectors)), strings.Join(b.sectorList(), ", "))
}

// typeOf resolves the type a member chain rooted at an env field reads, or
// nil when it cannot be known statically (a map of any, a closure variable).
func (b Names) typeOf(n ast.Node, env reflect.Type) (reflect.Type, string) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		f, ok := fieldByTag(env, n.Value)
		if !ok {
			return nil, "" // not an env field: expr names it
		}
		return f, ""
	case *ast.MemberNode:
		parent, msg := b.typeOf(n.Node, env)
		if parent == nil || msg != "" {
			return nil, msg
		}
		for parent.Kind() == reflect.Pointer {
			parent = parent.Elem()
		}
		prop, ok := n.Property.(*ast.StringNode)
		if !ok {
			if parent.Kind() == reflect.Slice || parent.Kind() == reflect.Map {
				return parent.Elem(), ""
			}
			return nil, ""
		}
		switch parent.Kind() {
		case reflect.Map:
			// An observation's clearance reading has the embodiment's
			// sectors: a literal other name reads nothing.
			if _, ok := b.Sectors[prop.Value]; parent == b.Types.Sectored && !ok && !b.Open {
				return nil, fmt.Sprintf("%s has no sector %q%s; the embodiment's sectors are %s", b.describe(n.Node, parent),
					prop.Value, didyoumean.Suggest(prop.Value, mapKeys(b.Sectors)), strings.Join(b.sectorList(), ", "))
			}
			return parent.Elem(), ""
		case reflect.Struct:
		default:
			return nil, ""
		}
		if t, ok := fieldByTag(parent, prop.Value); ok {
			return t, ""
		}
		switch parent {
		case b.Types.Clearance:
			if _, ok := b.Sectors[prop.Value]; ok || b.Open {
				return reflect.TypeFor[float64](), ""
			}
			return nil, fmt.Sprintf("clearance has no sector %q%s; the embodiment's sectors are %s",
				prop.Value, didyoumean.Suggest(prop.Value, append(mapKeys(b.Sectors), tagNames(parent)...)), strings.Join(b.sectorList(), ", "))
		case reflect.TypeFor[ReadingsEnv]():
			if t, ok := b.readingType(prop.Value); ok {
				return t, ""
			}
			return nil, "" // readingName reports it
		case b.Types.Limits:
			if slices.Contains(b.Extra, prop.Value) || b.Open {
				return reflect.TypeFor[float64](), ""
			}
			return nil, fmt.Sprintf("limits has no %q%s; declare it in embodiment.limits to read it", prop.Value, didyoumean.Suggest(prop.Value, b.Limits))
		}
		return nil, fmt.Sprintf("%s has no field %q%s", b.describe(n.Node, parent), prop.Value, didyoumean.Suggest(prop.Value, tagNames(parent)))
	}
	return nil, ""
}

func (b Names) sectorList() []string {
	var out []string
	for alias, name := range b.Sectors {
		if alias == name {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// describe names the value a member is read from: its path when it is a
// plain chain (observation.pose), else what its type is.
func (b Names) describe(n ast.Node, t reflect.Type) string {
	if p := chain(n); p != "" {
		return p
	}
	if name, ok := b.Types.Describe[t]; ok {
		return name
	}
	return "the value"
}

func chain(n ast.Node) string {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		return n.Value
	case *ast.MemberNode:
		s, ok := n.Property.(*ast.StringNode)
		if p := chain(n.Node); ok && p != "" {
			return p + "." + s.Value
		}
	}
	return ""
}

// fieldByTag finds a struct field by its expr tag.
func fieldByTag(t reflect.Type, name string) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := range t.NumField() {
		if f := t.Field(i); exprTag(f) == name {
			return f.Type, true
		}
	}
	return nil, false
}

func exprTag(f reflect.StructField) string {
	tag := f.Tag.Get("expr")
	if tag == "" {
		return f.Name
	}
	return tag
}

// tagNames lists a struct's expr field names.
func tagNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if tag := exprTag(t.Field(i)); tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// Visit patches body names into typed reads (see Names).
func (b Names) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	id, ok := m.Node.(*ast.IdentifierNode)
	prop, isStr := m.Property.(*ast.StringNode)
	if !ok || !isStr {
		return
	}
	switch {
	case id.Value == "clearance" && !slices.Contains(tagNames(b.Types.Clearance), prop.Value):
		name, ok := b.Sectors[prop.Value]
		if b.Open {
			name, ok = prop.Value, true
		}
		if ok {
			ast.Patch(node, &ast.MemberNode{
				Node:     &ast.MemberNode{Node: &ast.IdentifierNode{Value: "clearance"}, Property: &ast.StringNode{Value: "sectors"}},
				Property: &ast.StringNode{Value: name},
			})
		}
	case id.Value == "readings":
		b.patchReading(node, prop.Value)
	case id.Value == "limits" && (slices.Contains(b.Extra, prop.Value) || b.Open && !slices.Contains(tagNames(b.Types.Limits), prop.Value)):
		ast.Patch(node, &ast.MemberNode{
			Node:     &ast.MemberNode{Node: &ast.IdentifierNode{Value: "limits"}, Property: &ast.StringNode{Value: "extra"}},
			Property: &ast.StringNode{Value: prop.Value},
		})
	}
}

var (
	unknownName = regexp.MustCompile(`^unknown name (\w+)$`)
	goTypeField = regexp.MustCompile(`type [\w.*\[\]{}]+ has no field (\w+)`)
)

// friendly rewrites what is left of expr's Go wording: an unknown top-level
// name gets "did you mean" from the env's names; a Go type never shows.
func friendly(msg string, env reflect.Type) string {
	if m := unknownName.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown name %s%s; a rule here reads %s", m[1], didyoumean.Suggest(m[1], tagNames(env)), strings.Join(tagNames(env), ", "))
	}
	if m := goTypeField.FindStringSubmatch(msg); m != nil {
		return goTypeField.ReplaceAllString(msg, fmt.Sprintf("no field %q", m[1]))
	}
	return msg
}

// sortedKeys lists a map's keys in order, so messages come out stable.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func mapKeys[K comparable, V any](m map[K]V) []K { return slices.Collect(maps.Keys(m)) }

// FieldNames lists the names rules read of a struct type of an env (its
// fields' expr tags).
func FieldNames(t reflect.Type) []string { return tagNames(t) }
