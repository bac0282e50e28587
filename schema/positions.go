package schema

import (
	"path/filepath"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// posMap records, for every spec path written literally in a user file, where
// it was written. Paths look like `hooks.pre[0].rule` or `toolsets.sim`; the
// root is "". It is built from the syntax trees, so YAML works as CUE does.
type posMap map[string]Pos

// Pos returns the user's position of a spec path such as `tests[2]` or
// `hooks.pre[0].rule`. A path not written literally in the spec (a default,
// or a value built by a CUE expression) reports its nearest written ancestor.
func (s *Spec) Pos(path string) Pos {
	if s == nil {
		return Pos{}
	}
	return s.pos.lookup(path)
}

// Written reports whether the user wrote path literally (`tools.drive.physical`),
// so a value the CUE default gave can be told from the same value written.
func (s *Spec) Written(path string) bool {
	if s == nil {
		return false
	}
	_, ok := s.pos[path]
	return ok
}

// lookup returns the position of path or of its nearest recorded ancestor.
func (m posMap) lookup(path string) Pos {
	for {
		if p, ok := m[path]; ok {
			return p
		}
		if path == "" {
			return Pos{}
		}
		path = parentPath(path)
	}
}

// parentPath drops the last selector of a spec path.
func parentPath(path string) string {
	i := strings.LastIndexAny(path, ".[")
	if i < 0 {
		return ""
	}
	return path[:i]
}

// joinPath appends a field label to a spec path.
func joinPath(path, label string) string {
	if path == "" {
		return label
	}
	return path + "." + label
}

// indexPath appends a list index to a spec path.
func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// addFile records the positions of every literal field and list element of f.
// The first file to write a path wins, so positions follow load order.
func (m posMap) addFile(f *ast.File, file string) {
	if _, ok := m[""]; !ok {
		m[""] = Pos{File: file, Line: 1, Col: 1}
	}
	m.addDecls(f.Decls, "", file)
}

func (m posMap) addDecls(decls []ast.Decl, path, file string) {
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.Field:
			label, ok := fieldLabel(d.Label)
			if !ok {
				continue
			}
			p := joinPath(path, label)
			m.set(p, d.Label.Pos(), file)
			m.addExpr(d.Value, p, file)
		case *ast.EmbedDecl:
			m.addExpr(d.Expr, path, file)
		}
	}
}

func (m posMap) addExpr(x ast.Expr, path, file string) {
	switch x := x.(type) {
	case *ast.StructLit:
		m.addDecls(x.Elts, path, file)
	case *ast.ListLit:
		for i, e := range x.Elts {
			p := indexPath(path, i)
			m.set(p, e.Pos(), file)
			m.addExpr(e, p, file)
		}
	case *ast.BinaryExpr:
		if x.Op == token.AND {
			m.addExpr(x.X, path, file)
			m.addExpr(x.Y, path, file)
		}
	case *ast.ParenExpr:
		m.addExpr(x.X, path, file)
	case *ast.BasicLit:
		// A scalar's own position is more precise than its label's: rule
		// offsets are added to it.
		m.value(path, x.Pos(), file)
	case *ast.Interpolation:
		// A string built by interpolation ("clearance.\(s) < 1"): the rule
		// stands here, not at its label.
		m.value(path, x.Pos(), file)
	case *ast.Ident:
		// A reference to a string of the same file (rule: _guard): the rule
		// stands where that string is written.
		switch v := x.Node.(type) {
		case *ast.BasicLit, *ast.Interpolation:
			m.value(path, v.Pos(), file)
		}
	}
}

// set records the position of a label (first writer wins).
func (m posMap) set(path string, p token.Pos, file string) {
	if _, ok := m[path]; ok || !p.IsValid() {
		return
	}
	m[path] = Pos{File: file, Line: p.Line(), Col: p.Column()}
}

// value records the position of a scalar value under a separate key.
func (m posMap) value(path string, p token.Pos, file string) {
	m.set(valueKey(path), p, file)
}

// valueKey is the key of a scalar value's own position (not its label's).
func valueKey(path string) string { return path + "#value" }

// fieldLabel returns the name of a regular field; definitions, hidden fields
// and computed labels are not part of the plan.
func fieldLabel(l ast.Label) (string, bool) {
	switch l := l.(type) {
	case *ast.Ident:
		if strings.HasPrefix(l.Name, "#") || strings.HasPrefix(l.Name, "_") {
			return "", false
		}
		return l.Name, true
	case *ast.BasicLit:
		if l.Kind != token.STRING {
			return "", false
		}
		s, err := literal.Unquote(l.Value)
		if err != nil {
			return "", false
		}
		return s, true
	}
	return "", false
}

// ResolvePath resolves a path written in a spec against the spec's
// directory; absolute paths and the empty path are returned as they are.
// Every component resolves its files through it.
func ResolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// Resolve resolves a path written in this spec against its directory.
func (s *Spec) Resolve(p string) string { return ResolvePath(s.Dir, p) }
