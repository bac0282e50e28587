package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
)

// CUE reports only some problems when several are present (a missing field
// hides behind a conflict, an unknown field beside others is dropped), so
// unknown and missing fields are found by walking the user's syntax and the
// unified value here; CUE's own errors supply the rest.

// checkFields reports every literal field the schema does not allow, walking
// the user's syntax tree alongside the schema.
func (l *loader) checkFields(schema cue.Value, decls []ast.Decl, path, file string) {
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.Field:
			label, ok := fieldLabel(d.Label)
			if !ok {
				continue
			}
			p := joinPath(path, label)
			if !schema.Allows(cue.Str(label)) {
				hint := l.othersField(p)
				if hint == "" {
					hint = suggest(label, fieldNames(schema))
				}
				l.errorf(tokenPos(d.Label.Pos()), p, "unknown field %q%s", label, hint)
				l.unknownFields[p] = true
				continue
			}
			l.checkExpr(schemaField(schema, label), d.Value, p, file)
		case *ast.EmbedDecl:
			l.checkExpr(schema, d.Expr, path, file)
		}
	}
}

func (l *loader) checkExpr(schema cue.Value, x ast.Expr, path, file string) {
	if !schema.Exists() {
		return
	}
	switch x := x.(type) {
	case *ast.StructLit:
		// A section's fields are known once the component it names is.
		if sk := sectionAt(path); sk != nil {
			schema = l.selectSchema(schema, path, sk, literalString(x, sk.Selector))
		}
		if schema.IncompleteKind()&cue.StructKind != 0 {
			l.checkFields(schema, x.Elts, path, file)
		}
	case *ast.ListLit:
		elem := schema.LookupPath(cue.MakePath(cue.AnyIndex))
		for i, e := range x.Elts {
			l.checkExpr(elem, e, indexPath(path, i), file)
		}
	case *ast.BinaryExpr:
		if x.Op == token.AND {
			l.checkExpr(schema, x.X, path, file)
			l.checkExpr(schema, x.Y, path, file)
		}
	case *ast.ParenExpr:
		l.checkExpr(schema, x.X, path, file)
	}
}

// literalString is the string a struct literal gives field, or "".
func literalString(x *ast.StructLit, field string) string {
	for _, e := range x.Elts {
		f, ok := e.(*ast.Field)
		if !ok {
			continue
		}
		if label, ok := fieldLabel(f.Label); !ok || label != field {
			continue
		}
		if lit, ok := f.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if k, err := strconv.Unquote(lit.Value); err == nil {
				return k
			}
		}
	}
	return ""
}

// schemaField is the schema of a field: its declaration, else the pattern
// constraint of a map such as toolsets.
func schemaField(schema cue.Value, label string) cue.Value {
	for _, sel := range []cue.Selector{cue.Str(label), cue.Str(label).Required(), cue.Str(label).Optional()} {
		if v := schema.LookupPath(cue.MakePath(sel)); v.Exists() {
			return v
		}
	}
	return schema.LookupPath(cue.MakePath(cue.AnyString))
}

// fieldNames lists the declared fields of a schema struct.
func fieldNames(schema cue.Value) []string {
	var names []string
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return nil
	}
	for it.Next() {
		names = append(names, it.Selector().Unquoted())
	}
	return names
}

// checkRequired reports every required field left out, at its parent's
// position in the user's file. It walks the schema beside the user's own
// value (built without the schema, so other errors cannot hide these).
func (l *loader) checkRequired(schema, user cue.Value, path string) {
	switch user.IncompleteKind() {
	case cue.StructKind:
		if sk := sectionAt(path); sk != nil {
			name, _ := user.LookupPath(cue.MakePath(cue.Str(sk.Selector))).String()
			schema = l.selectSchema(schema, path, sk, name)
		}
		if it, err := schema.Fields(cue.Optional(true)); err == nil {
			for it.Next() {
				sel := it.Selector()
				if sel.ConstraintType() != cue.RequiredConstraint {
					continue
				}
				name := sel.Unquoted()
				if !user.LookupPath(cue.MakePath(cue.Str(name))).Exists() {
					l.errorf(l.pos.lookup(path), joinPath(path, name), "missing required field %q", name)
				}
			}
		}
		it, err := user.Fields()
		if err != nil {
			return
		}
		for it.Next() {
			name := it.Selector().Unquoted()
			if child := schemaField(schema, name); child.Exists() {
				l.checkRequired(child, it.Value(), joinPath(path, name))
			}
		}
	case cue.ListKind:
		it, err := user.List()
		if err != nil {
			return
		}
		elem := schema.LookupPath(cue.MakePath(cue.AnyIndex))
		for i := 0; it.Next(); i++ {
			l.checkRequired(elem, it.Value(), indexPath(path, i))
		}
	}
}

// convertErrors turns CUE errors into diagnostics at the user's positions.
// A failed disjunction arrives as a summary plus one error per branch; those
// are grouped by path and reported once.
func (l *loader) convertErrors(err error) {
	if err == nil {
		return
	}
	type group struct {
		pos      Pos
		msgs     []string
		disjunct bool
	}
	groups := map[string]*group{}
	var order []string
	for _, e := range cueerrors.Errors(err) {
		path := specPath(e.Path())
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		switch {
		case strings.Contains(msg, "field is required but not present"), strings.HasPrefix(msg, "required field missing"):
			// checkRequired reports these, at the user's position (the
			// second form is a section's missing selector, read to pick
			// its component's fields).
			continue
		case strings.HasPrefix(msg, "undefined field: ") && path == "embodiment":
			msg += suggest(strings.TrimPrefix(msg, "undefined field: "), sortedKeys(l.opts.Profiles)) +
				" (bundled profiles: " + strings.Join(sortedKeys(l.opts.Profiles), ", ") + ")"
		case strings.Contains(msg, "field not allowed"):
			if l.reportedUnknown(path) {
				continue // checkFields reported it (or its parent) with a suggestion
			}
			msg = "unknown field"
		}
		g := groups[path]
		if g == nil {
			g = &group{}
			groups[path] = g
			order = append(order, path)
		}
		p := l.userPos(e, path)
		if g.pos.File == "" || (p.Line > 1 || p.Col > 1) && g.pos.Line <= 1 && g.pos.Col <= 1 {
			g.pos = p
		}
		if strings.Contains(msg, "empty disjunction") {
			g.disjunct = true
			continue
		}
		g.msgs = append(g.msgs, msg)
	}
	for _, path := range order {
		g := groups[path]
		if len(g.msgs) == 0 {
			continue // a consequence of an error reported at another path
		}
		if !g.disjunct {
			// One problem per field: a value breaking two constraints
			// (#Type & =~"/srv/") is reported by the first.
			l.errorf(g.pos, path, "%s", durationHint(path, crossFieldNote(path, humanize(g.msgs[0]))))
			continue
		}
		l.errorf(g.pos, path, "%s", crossFieldNote(path, humanize(l.summariseDisjunction(path, g.msgs))))
	}
}

// reportedUnknown tells whether checkFields reported path, or a field it is
// inside, as unknown.
func (l *loader) reportedUnknown(path string) bool {
	for p := path; p != ""; {
		if l.unknownFields[p] {
			return true
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
	return false
}

// userPos picks the position of an error in the user's files, else the
// nearest written ancestor of its path.
func (l *loader) userPos(e cueerrors.Error, path string) Pos {
	for _, p := range cueerrors.Positions(e) {
		if slices.Contains(l.paths, p.Filename()) {
			return tokenPos(p)
		}
	}
	if p, ok := l.pos[valueKey(path)]; ok {
		return p
	}
	return l.pos.lookup(path)
}

// summariseDisjunction replaces the errors of every failed branch with
// "must be one of …" for enums, else with the branch error that says most.
func (l *loader) summariseDisjunction(path string, msgs []string) string {
	if opts := enumOptions(l.schemaAt(path)); len(opts) > 0 {
		return "must be one of " + strings.Join(opts, ", ")
	}
	for _, m := range msgs {
		if !strings.HasPrefix(m, "conflicting values") || strings.Contains(m, "mismatched types") {
			return m
		}
	}
	if len(msgs) > 0 {
		return msgs[len(msgs)-1]
	}
	return "value matches none of the allowed forms"
}

// schemaAt walks the schema along a spec path, using element and pattern
// constraints for list indexes and map keys.
func (l *loader) schemaAt(path string) cue.Value {
	v := l.schema
	at := ""
	for _, sel := range splitPath(path) {
		if _, err := strconv.Atoi(sel); err == nil {
			v = v.LookupPath(cue.MakePath(cue.AnyIndex))
			at += "[" + sel + "]"
		} else {
			v = schemaField(v, sel)
			at = joinPath(at, sel)
		}
		if s, ok := l.selections[at]; ok {
			v = l.selectSchema(v, at, s.sk, s.name)
		}
	}
	return v
}

// enumOptions returns the quoted literals of a disjunction of concrete values.
func enumOptions(v cue.Value) []string {
	op, args := v.Eval().Expr()
	if op != cue.OrOp {
		return nil
	}
	var out []string
	for _, a := range args {
		if !a.IsConcrete() || a.IncompleteKind()&(cue.StringKind|cue.NumberKind|cue.BoolKind) == 0 {
			return nil
		}
		out = append(out, fmt.Sprint(a))
	}
	return out
}

// specPath renders a CUE error path ([hooks pre 0 rule]) as hooks.pre[0].rule.
func specPath(sels []string) string {
	if len(sels) > 0 && sels[0] == "#Spec" {
		sels = sels[1:]
	}
	var b strings.Builder
	for _, s := range sels {
		// A label that is not an identifier ("max-turns") comes quoted; the
		// spec's paths name it bare, as the user wrote it.
		if u, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
			s = u
		}
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// splitPath splits hooks.pre[0].rule into [hooks pre 0 rule].
func splitPath(path string) []string {
	path = strings.ReplaceAll(path, "[", ".")
	path = strings.ReplaceAll(path, "]", "")
	if path == "" {
		return nil
	}
	return strings.Split(path, ".")
}

func tokenPos(p token.Pos) Pos {
	if !p.IsValid() {
		return Pos{}
	}
	return Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
}
