package reference

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// shape is what a field's CUE expression means to a reader: its type in
// words, the constraints worth stating, its default, and the object it
// holds (directly, or as a list's element or a map's value) when it is one.
type shape struct {
	text        string
	constraints []string
	def         string // CUE literal; "" for none
	obj         *object
}

// object is a struct to document in its own section: where it sits (suffix
// appended to the field's path: "", "[]" or ".<name>") and its source, a
// definition's name or an inline struct.
type object struct {
	suffix string
	def    string
	lit    *ast.StructLit
}

// scalarWords are the schema's named value types, as the reference's
// "Value types" section explains them.
var scalarWords = map[string]string{
	"#Duration":   "[duration](#value-types)",
	"#Identifier": "[identifier](#value-types)",
	"#Expr":       "[expr](#value-types)",
	"#Name":       "[ROS name](#value-types)",
	"#Type":       "[ROS type](#value-types)",
	"#ToolName":   "[tool name](#value-types)",
}

// describe turns one expression of the file f into a shape.
func (f *file) describe(e ast.Expr) shape {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return f.describe(x.X)
	case *ast.Ident:
		return f.ident(x.Name)
	case *ast.BasicLit:
		return shape{text: "`" + x.Value + "`"}
	case *ast.UnaryExpr:
		if x.Op == token.MUL {
			s := f.describe(x.X)
			s.def = f.defaultText(x.X)
			return s
		}
		text := "number"
		if x.Op == token.MAT || x.Op == token.NMAT || cueText(x.X) == `""` {
			text = "string"
		}
		return shape{text: text, constraints: []string{constraint(x)}}
	case *ast.CallExpr:
		if fn, ok := x.Fun.(*ast.SelectorExpr); ok && cueText(fn) == "strings.MinRunes" && len(x.Args) == 1 && cueText(x.Args[0]) == "1" {
			return shape{text: "string", constraints: []string{"non-empty"}}
		}
		return shape{constraints: []string{"`" + cueText(x) + "`"}}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.OR:
			return f.disjunction(x)
		case token.AND:
			return f.conjunction(x)
		}
	case *ast.ListLit:
		if len(x.Elts) == 1 {
			if el, ok := x.Elts[0].(*ast.Ellipsis); ok {
				if el.Type == nil {
					return shape{text: "list"}
				}
				s := f.describe(el.Type)
				s.text = "list of " + s.text
				if s.obj != nil {
					s.obj.suffix = "[]" + s.obj.suffix
				}
				return s
			}
		}
		return shape{text: "list", def: cueText(x)}
	case *ast.StructLit:
		return f.structShape(x)
	}
	return shape{text: "`" + cueText(e) + "`"}
}

// ident is a named type: a built-in, a registered component's name, a
// named value type, or a definition of the schema.
func (f *file) ident(name string) shape {
	switch name {
	case "string", "int", "bool", "number", "float", "bytes":
		return shape{text: name}
	case "_":
		return shape{text: "any value"}
	case "#NonEmpty":
		return shape{text: "string", constraints: []string{"non-empty"}}
	}
	if w, ok := scalarWords[name]; ok {
		return shape{text: w}
	}
	// A component's own definition (#Toolset_rosbridge_Expr) is the value
	// type of its last word.
	if strings.Count(name, "_") >= 2 {
		if w, ok := scalarWords["#"+name[strings.LastIndex(name, "_")+1:]]; ok {
			return shape{text: w}
		}
	}
	if k, ok := f.kinds[name]; ok {
		return shape{text: k}
	}
	d, ok := f.defs[name]
	if !ok {
		return shape{text: "`" + name + "`"}
	}
	if st, ok := d.(*ast.StructLit); ok && hasFields(st) {
		return shape{text: "object", obj: &object{def: name}}
	}
	return f.describe(d)
}

// disjunction is `a | b`: a choice among literals, or a type with a
// default (`*4096 | int`).
func (f *file) disjunction(x *ast.BinaryExpr) shape {
	var alts []ast.Expr
	flatten(x, token.OR, &alts)
	var out shape
	var lits, types []shape
	for _, a := range alts {
		s := f.describe(a)
		if s.def != "" {
			out.def = s.def
		}
		if isLiteral(a) {
			lits = append(lits, s)
		} else {
			types = append(types, s)
		}
	}
	if len(types) == 0 {
		words := make([]string, len(lits))
		for i, l := range lits {
			words[i] = l.text
		}
		out.text = "one of " + strings.Join(words, " \\| ")
		return out
	}
	words := make([]string, len(types))
	for i, t := range types {
		words[i] = t.text
		out.constraints = append(out.constraints, t.constraints...)
		if t.obj != nil {
			out.obj = t.obj
		}
	}
	out.text = strings.Join(words, " or ")
	return out
}

// conjunction is `a & b`: the most specific type and every constraint.
func (f *file) conjunction(x *ast.BinaryExpr) shape {
	var parts []ast.Expr
	flatten(x, token.AND, &parts)
	var out shape
	for _, p := range parts {
		s := f.describe(p)
		if s.def != "" {
			out.def = s.def
		}
		if s.obj != nil {
			out.obj = s.obj
		}
		// A named type (duration) says more than the string it refines.
		if s.text != "" && (out.text == "" || out.text == "string" || out.text == "number") {
			out.text = s.text
		}
		out.constraints = append(out.constraints, s.constraints...)
	}
	if out.text == "" {
		out.text = "value"
		for _, c := range out.constraints {
			if strings.HasPrefix(c, "matches") || c == "non-empty" {
				out.text = "string"
			}
		}
	}
	return out
}

// structShape is an inline struct: a map when it has only a pattern
// (`[string]: X`), any object when it is open and empty, else an object.
func (f *file) structShape(st *ast.StructLit) shape {
	if hasFields(st) {
		return shape{text: "object", obj: &object{lit: st}}
	}
	for _, d := range st.Elts {
		if fl, ok := d.(*ast.Field); ok {
			if _, ok := fl.Label.(*ast.ListLit); ok {
				s := f.describe(fl.Value)
				s.text = "map of name → " + s.text
				if s.obj != nil {
					s.obj.suffix = ".<name>" + s.obj.suffix
				}
				return s
			}
		}
	}
	return shape{text: "object (any fields)"}
}

// constraint states a bound or a pattern.
func constraint(x *ast.UnaryExpr) string {
	v := cueText(x.X)
	switch x.Op {
	case token.GTR:
		return "> " + v
	case token.GEQ:
		return "≥ " + v
	case token.LSS:
		return "< " + v
	case token.LEQ:
		return "≤ " + v
	case token.NEQ:
		if v == `""` {
			return "non-empty"
		}
		return "not " + v
	case token.MAT:
		return "matches `" + v + "`"
	case token.NMAT:
		return "does not match `" + v + "`"
	}
	return "`" + cueText(x) + "`"
}

// hasFields is whether a struct declares a regular (named) field.
func hasFields(st *ast.StructLit) bool {
	for _, d := range st.Elts {
		if fl, ok := d.(*ast.Field); ok {
			if _, pattern := fl.Label.(*ast.ListLit); !pattern {
				return true
			}
		}
		if _, ok := d.(*ast.EmbedDecl); ok {
			return true
		}
	}
	return false
}

func flatten(e ast.Expr, op token.Token, out *[]ast.Expr) {
	if p, ok := e.(*ast.ParenExpr); ok {
		e = p.X
	}
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == op {
		flatten(b.X, op, out)
		flatten(b.Y, op, out)
		return
	}
	*out = append(*out, e)
}

// isLiteral is whether an alternative is a value rather than a type.
func isLiteral(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.UnaryExpr:
		return x.Op == token.MUL && isLiteral(x.X)
	case *ast.BasicLit:
		return true
	case *ast.ListLit:
		return len(x.Elts) != 1 || !isEllipsis(x.Elts[0])
	case *ast.Ident:
		return strings.HasPrefix(x.Name, "#Default")
	}
	return false
}

func isEllipsis(e ast.Expr) bool { _, ok := e.(*ast.Ellipsis); return ok }

// defaultText is a default as a reader sees it: a named default resolved,
// a multi-line string as its text.
func (f *file) defaultText(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		if d, ok := f.defs[id.Name]; ok {
			return f.defaultText(d)
		}
	}
	if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING && strings.HasPrefix(bl.Value, `"""`) {
		if s, err := literal.Unquote(bl.Value); err == nil {
			return s
		}
	}
	return cueText(e)
}

// cueText is an expression's CUE text on one line.
func cueText(e ast.Node) string {
	b, err := format.Node(e, format.Simplify())
	if err != nil {
		return fmt.Sprintf("%v", e)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}
