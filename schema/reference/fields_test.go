package reference_test

import (
	"slices"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/schema/reference"
)

// TestEveryFieldDocumented walks the compiled schema from #Spec down (and
// each sectioned component's definition, and the back-end results), independently
// of the generator's reading of the source, and requires that every field
// has a doc comment and an anchor in the reference.
func TestEveryFieldDocumented(t *testing.T) {
	c := componentstest.Descriptors(t)
	md, err := reference.Markdown(c)
	if err != nil {
		t.Fatal(err)
	}
	out := string(md)
	if n := strings.Count(out, reference.Undocumented); n > 0 {
		t.Errorf("%d fields or components have no doc comment (search the output for %s)", n, reference.Undocumented)
	}
	v := cuecontext.New().CompileBytes(schema.CUESchema(c))
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	have := anchors(out)

	type root struct {
		schema          cue.Value
		def, path, tail string
		skip            map[string]bool
	}
	roots := []root{{schema: v, def: "#Spec"}}
	// Each component a section names: its own fields, under every place
	// its section stands (the first: the reference links the others there).
	paths := map[string]string{"Model": "model", "Toolset": "toolsets.<name>", "PreHook": "hooks.pre[]", "PostHook": "hooks.post[]", "User": "user"}
	for _, sk := range schema.SectionKinds() {
		common := map[string]bool{}
		fields(t, v.LookupPath(cue.ParsePath("#"+sk.Def+"Common")), func(name string, _ cue.Value) { common[name] = true })
		for _, k := range c.Names(sk.Kind) {
			roots = append(roots, root{schema: v, def: sk.KindDef(k), path: paths[sk.Def], tail: " (" + k + ")", skip: common})
		}
	}
	for _, d := range schema.ContractDefs {
		name := strings.ToUpper(d[:1]) + d[1:]
		roots = append(roots, root{schema: v, def: "#" + name, path: name, tail: " (result)"})
	}
	walked := 0
	for _, r := range roots {
		w := &fieldWalker{t: t, schema: r.schema, tail: r.tail, skip: r.skip, seen: map[string]bool{},
			visit: func(path string, doc bool) {
				walked++
				a := slug("`" + path + "`" + r.tail)
				if !have[a] {
					t.Errorf("%s%s: no anchor %q in the reference", path, r.tail, a)
				}
				if !doc {
					t.Errorf("%s%s: no doc comment in the schema", path, r.tail)
				}
			}}
		w.walk(r.schema.LookupPath(cue.ParsePath(r.def)), r.path)
	}
	if walked < 150 {
		t.Errorf("walked only %d fields: the walk lost its way", walked)
	}
}

// fieldWalker visits every field under a value, descending into lists'
// elements, maps' values and structs; a definition already visited under
// this root is not visited again (the reference links to it).
// maxWalkDepth bounds how deep the walk goes: deeper than any field the
// schema declares outside a recursive definition.
const maxWalkDepth = 16

type fieldWalker struct {
	t      *testing.T
	schema cue.Value
	tail   string
	skip   map[string]bool
	seen   map[string]bool
	inside []string // the shapes (field names) of the structs the walk is in
	visit  func(path string, documented bool)
}

func (w *fieldWalker) walk(v cue.Value, path string) {
	fields(w.t, v, func(name string, fv cue.Value) {
		if w.skip[name] {
			return
		}
		fp := join(path, name)
		w.visit(fp, len(fv.Doc()) > 0)
		elem, ep := fv, fp
		for {
			if e := elem.LookupPath(cue.MakePath(cue.AnyIndex)); elem.IncompleteKind() == cue.ListKind && e.Exists() {
				elem, ep = e, ep+"[]"
				continue
			}
			if e := mapValue(elem); elem.IncompleteKind() == cue.StructKind && !hasFields(w.t, elem) && e.Exists() {
				elem, ep = e, ep+".<name>"
				continue
			}
			break
		}
		if elem.IncompleteKind() != cue.StructKind || !hasFields(w.t, elem) {
			return
		}
		// A recursive definition reached through a name pattern (a
		// rosbridge argument's properties) loses its reference on the
		// way, so seen cannot stop it; a struct of the same fields as one
		// it is inside is that recursion, which the reference links back
		// to (and a bound keeps a walk that still loses its way finite).
		shape := shapeOf(w.t, elem)
		if slices.Contains(w.inside, shape) || strings.Count(ep, ".") > maxWalkDepth {
			return
		}
		w.inside = append(w.inside, shape)
		defer func() { w.inside = w.inside[:len(w.inside)-1] }()
		if _, ref := elem.ReferencePath(); len(ref.Selectors()) > 0 {
			key := ref.String()
			if w.seen[key] {
				return
			}
			w.seen[key] = true
			// A section's component selects its fields: the reference
			// lists every such section's here and each component's in its
			// own section.
			for _, sk := range schema.SectionKinds() {
				if key == "#"+sk.Def {
					elem = w.schema.LookupPath(cue.ParsePath("#" + sk.Def + "Common"))
				}
			}
		}
		w.walk(elem, ep)
	})
	// Named fields beside a pattern (any other limit, by name).
	if hasFields(w.t, v) && v.LookupPath(cue.MakePath(cue.AnyString)).Exists() {
		w.visit(join(path, "<name>"), true)
	}
}

// mapValue is what a map's pattern makes of any key: AnyString for
// `[string]: X`, or what a sample key gets from a name pattern
// (`[=~"^[a-z]..."]`).
func mapValue(v cue.Value) cue.Value {
	if e := v.LookupPath(cue.MakePath(cue.AnyString)); e.Exists() {
		return e
	}
	// A name pattern's value is found only by filling in a key it accepts.
	key := cue.MakePath(cue.Str("a"))
	return v.FillPath(key, cuecontext.New().CompileString("_")).LookupPath(key)
}

func fields(t *testing.T, v cue.Value, f func(name string, v cue.Value)) {
	t.Helper()
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		t.Fatalf("fields of %v: %v", v.Path(), err)
	}
	for it.Next() {
		f(it.Selector().Unquoted(), it.Value())
	}
}

// shapeOf names a struct by its fields' names, in order.
func shapeOf(t *testing.T, v cue.Value) string {
	var names []string
	fields(t, v, func(name string, _ cue.Value) { names = append(names, name) })
	return strings.Join(names, ",")
}

func hasFields(t *testing.T, v cue.Value) bool {
	n := 0
	fields(t, v, func(string, cue.Value) { n++ })
	return n > 0
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
