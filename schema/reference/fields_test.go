package reference_test

import (
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/schema/reference"
)

// TestEveryFieldDocumented walks the compiled schema from #Spec down (and
// each toolset kind's definition, and the back-end results), independently
// of the generator's reading of the source, and requires that every field
// has a doc comment and an anchor in the reference.
func TestEveryFieldDocumented(t *testing.T) {
	c := testutil.Catalog(t)
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
	common := map[string]bool{}
	fields(t, v.LookupPath(cue.ParsePath("#ToolsetCommon")), func(name string, _ cue.Value) { common[name] = true })

	type root struct {
		def, path, tail string
		skip            map[string]bool
	}
	roots := []root{{def: "#Spec"}}
	for _, k := range c.Names(schema.KindToolset) {
		roots = append(roots, root{def: "#Toolset_" + k, path: "toolsets.<name>", tail: " (" + k + ")", skip: common})
	}
	for _, d := range schema.ContractDefs {
		name := strings.ToUpper(d[:1]) + d[1:]
		roots = append(roots, root{def: "#" + name, path: name, tail: " (result)"})
	}
	walked := 0
	for _, r := range roots {
		w := &fieldWalker{t: t, schema: v, tail: r.tail, skip: r.skip, seen: map[string]bool{},
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
		w.walk(v.LookupPath(cue.ParsePath(r.def)), r.path)
	}
	if walked < 150 {
		t.Errorf("walked only %d fields: the walk lost its way", walked)
	}
}

// fieldWalker visits every field under a value, descending into lists'
// elements, maps' values and structs; a definition already visited under
// this root is not visited again (the reference links to it).
type fieldWalker struct {
	t      *testing.T
	schema cue.Value
	tail   string
	skip   map[string]bool
	seen   map[string]bool
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
			if e := elem.LookupPath(cue.MakePath(cue.AnyString)); elem.IncompleteKind() == cue.StructKind && !hasFields(w.t, elem) && e.Exists() {
				elem, ep = e, ep+".<name>"
				continue
			}
			break
		}
		if elem.IncompleteKind() != cue.StructKind || !hasFields(w.t, elem) {
			return
		}
		if _, ref := elem.ReferencePath(); len(ref.Selectors()) > 0 {
			key := ref.String()
			if w.seen[key] {
				return
			}
			w.seen[key] = true
			// A toolset's kind selects its fields: the reference lists
			// every toolset's here and each kind's in its own section.
			if key == "#Toolset" {
				elem = w.schema.LookupPath(cue.ParsePath("#ToolsetCommon"))
			}
		}
		w.walk(elem, ep)
	})
	// Named fields beside a pattern (any other limit, by name).
	if hasFields(w.t, v) && v.LookupPath(cue.MakePath(cue.AnyString)).Exists() {
		w.visit(join(path, "<name>"), true)
	}
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
