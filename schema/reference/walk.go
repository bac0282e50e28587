package reference

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
)

// file is one parsed CUE schema: its definitions by name, their doc
// comments, and the words for the component names the catalog registers.
type file struct {
	defs  map[string]ast.Expr
	docs  map[string]string
	kinds map[string]string
}

func parse(name string, src []byte, kinds map[string]string) (*file, error) {
	af, err := parser.ParseFile(name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", name, err)
	}
	f := &file{defs: map[string]ast.Expr{}, docs: map[string]string{}, kinds: kinds}
	for _, d := range af.Decls {
		fl, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		id, ok := fl.Label.(*ast.Ident)
		if !ok || !strings.HasPrefix(id.Name, "#") {
			continue
		}
		// A component's names are declared twice (a bare string, then
		// narrowed by the catalog); the words in kinds stand for both.
		f.defs[id.Name] = fl.Value
		if doc := docOf(fl); doc != "" {
			f.docs[id.Name] = doc
		}
	}
	return f, nil
}

// docOf is a node's doc comment as one paragraph per blank-line block.
func docOf(n ast.Node) string {
	var parts []string
	for _, cg := range ast.Comments(n) {
		if cg.Doc && !cg.Line {
			parts = append(parts, strings.TrimSpace(cg.Text()))
		}
	}
	return strings.Join(parts, "\n\n")
}

// section is one object of the reference: a heading, what it is, and a
// table of its fields.
type section struct {
	level    int
	title    string
	doc      string
	rows     []row
	children []*section
}

// anchor is the heading's anchor as GitHub and most renderers compute it.
func (s *section) anchor() string { return slug(s.title) }

// row is one field.
type row struct {
	name     string
	anchor   string // "" when the field's own section carries it
	link     string // the anchor of the section documenting its value
	typ      string
	def      string
	doc      string
	required bool
}

// walker documents the objects under one root (the spec, a toolset kind,
// a back-end result). Each definition is documented once per root, where
// it is first reached; later fields of its type link there.
type walker struct {
	f *file
	// tail follows each title and anchor: " (mcp)" for a toolset kind's
	// fields, which share toolsets.<name> with every other kind's.
	tail string
	seen map[string]string
	// skip are fields and embeddings not documented here (a kind's
	// section leaves out what every toolset has).
	skip map[string]bool
	// expand documents a definition specially (#Toolset: every toolset's
	// fields, then each kind's).
	expand map[string]func(path string, level int) *section
}

func newWalker(f *file, tail string) *walker {
	return &walker{f: f, tail: tail, seen: map[string]string{}, skip: map[string]bool{},
		expand: map[string]func(string, int) *section{}}
}

// object documents a struct at path, its fields' objects as children.
func (w *walker) object(level int, title, path, doc string, st *ast.StructLit) *section {
	s := &section{level: level, title: title, doc: doc}
	w.fields(s, path, st)
	return s
}

func (w *walker) fields(s *section, path string, st *ast.StructLit) {
	for _, d := range st.Elts {
		switch x := d.(type) {
		case *ast.EmbedDecl:
			id, ok := x.Expr.(*ast.Ident)
			if !ok || w.skip[id.Name] {
				continue
			}
			if emb, ok := w.f.defs[id.Name].(*ast.StructLit); ok {
				w.fields(s, path, emb)
			}
		case *ast.Field:
			w.field(s, path, x)
		case *ast.Ellipsis:
			// An open struct beside named fields takes any other field.
			if x.Type == nil && hasFields(st) {
				s.rows = append(s.rows, row{name: "<name>", anchor: slug("`" + join(path, "<name>") + "`" + w.tail),
					typ: "any value", doc: docOf(x)})
			}
		}
	}
}

func (w *walker) field(s *section, path string, fl *ast.Field) {
	name, doc := label(fl), docOf(fl)
	if w.skip[name] {
		return
	}
	fp := join(path, name)
	sh := w.f.describe(fl.Value)
	r := row{name: name, anchor: slug("`" + fp + "`" + w.tail), typ: sh.text, def: sh.def, doc: doc,
		required: fl.Constraint == token.NOT}
	if len(sh.constraints) > 0 {
		r.typ += ", " + strings.Join(sh.constraints, ", ")
	}
	if o := sh.obj; o != nil {
		op := fp + o.suffix
		title := "`" + op + "`" + w.tail
		// The spec's top-level objects are sections of their own.
		level := childLevel(s.level)
		if path == "" {
			level = s.level
		}
		var child *section
		switch {
		case o.def != "" && w.seen[o.def] != "":
			r.link = w.seen[o.def]
		case o.def != "" && w.expand[o.def] != nil:
			w.seen[o.def] = slug(title)
			child = w.expand[o.def](op, level)
		case o.def != "":
			st, _ := w.f.defs[o.def].(*ast.StructLit)
			w.seen[o.def] = slug(title)
			cdoc := w.f.docs[o.def]
			if cdoc == "" {
				cdoc = doc
			}
			child = w.object(level, title, op, cdoc, st)
		default:
			child = w.object(level, title, op, doc, o.lit)
		}
		if child != nil {
			r.link = child.anchor()
			s.children = append(s.children, child)
		}
		if r.link == r.anchor {
			r.anchor = ""
		}
	}
	s.rows = append(s.rows, r)
}

// childLevel is a nested object's heading level: below its parent, at
// most level 4 so deep paths stay readable.
func childLevel(parent int) int { return min(parent+1, 4) }

// label is a field's name; a pattern (`[string]: number` beside named
// fields) reads as <name>.
func label(fl *ast.Field) string {
	switch l := fl.Label.(type) {
	case *ast.Ident:
		return l.Name
	case *ast.BasicLit:
		if s, err := strconv.Unquote(l.Value); err == nil {
			return s
		}
		return l.Value
	}
	return "<name>"
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// slug is a heading's anchor: lower case, letters, digits, '-' and '_'
// kept, spaces turned into '-', everything else dropped.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
