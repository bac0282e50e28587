package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// SectionKind is a kind of component that a spec section names by one of
// its fields (its selector): a toolset's kind, a model's provider, a hook's
// action, the user's channel. The section has the fields every such
// section has (#<Def>Common, in the embedded schema) and the named
// component's own (Descriptor.CUE), decoded into the component's type
// (Descriptor.Config).
type SectionKind struct {
	Kind Kind
	// Def is the generated definition's name: #<Def> selects #<Def>_<name>.
	Def string
	// Selector is the field naming the component.
	Selector string
	// Noun names one such section in prose ("toolset", "model section").
	Noun string
	// decl declares the selector in #<Def> (as #<Def>Common does).
	decl string
	// deflt is the component a section naming none is ("" when it must
	// name one).
	deflt string
}

// SectionKinds are the sectioned kinds, in the order the schema lists
// their definitions.
var sectionKinds = []SectionKind{
	{KindProvider, "Model", "provider", "model section", "provider!: #Provider", ""},
	{KindToolset, "Toolset", "kind", "toolset", "kind!: #ToolsetKind", ""},
	{KindPreAction, "PreHook", "action", "pre-hook", "action!: #PreAction", ""},
	{KindPostAction, "PostHook", "action", "post-hook", "action!: #PostAction", ""},
	{KindUserChannel, "User", "channel", "user section", `channel: *"terminal" | #UserChannel`, "terminal"},
}

// SectionKinds are the kinds of component a section names.
func SectionKinds() []SectionKind { return slices.Clone(sectionKinds) }

// KindDef is the name of the definition of one component's section
// (#Toolset_mcp).
func (sk SectionKind) KindDef(name string) string { return "#" + sk.Def + "_" + name }

// sectionKindOf is the sectioned kind of k, or nil.
func sectionKindOf(k Kind) *SectionKind {
	for i := range sectionKinds {
		if sectionKinds[i].Kind == k {
			return &sectionKinds[i]
		}
	}
	return nil
}

// sectionDefs defines, for each sectioned kind, #<def>_<name> for each
// registered component (the common fields, its selector, its own fields)
// and #<def>, the definition a section's selector picks: by a comprehension
// on the selector, so Load reports each problem at the user's field, or
// (disjunction) as alternatives for JSON Schema. A name nothing registers
// leaves its fields unchecked here: Load reports the name.
func (c *Descriptors) sectionDefs(disjunction bool) (string, error) {
	var b strings.Builder
	for _, sk := range sectionKinds {
		names := c.Names(sk.Kind)
		fmt.Fprintf(&b, "\n// The %ss registered in this build.\n", sk.Kind)
		for _, n := range names {
			d, _ := c.Lookup(sk.Kind, n)
			own, hoisted, err := ownCUE(sk.KindDef(n), d.CUE)
			if err != nil {
				return "", fmt.Errorf("%s %q: its CUE: %w", sk.Kind, n, err)
			}
			if d.Doc != "" {
				fmt.Fprintf(&b, "\n// %s\n", strings.ReplaceAll(d.Doc, "\n", " "))
			}
			sel := fmt.Sprintf("%s!: %q", sk.Selector, n)
			if n == sk.deflt {
				sel = fmt.Sprintf("%s: %q", sk.Selector, n)
			}
			fmt.Fprintf(&b, "#%s_%s: {\n\t#%sCommon\n\t%s\n", sk.Def, n, sk.Def, sel)
			if own != "" {
				fmt.Fprintf(&b, "\t%s\n", strings.ReplaceAll(own, "\n", "\n\t"))
			}
			b.WriteString("}\n")
			b.WriteString(hoisted)
		}
		if disjunction && len(names) > 0 {
			alts := make([]string, len(names))
			for i, n := range names {
				alts[i] = sk.KindDef(n)
			}
			fmt.Fprintf(&b, "\n#%s: %s\n", sk.Def, strings.Join(alts, " | "))
			continue
		}
		fmt.Fprintf(&b, "\n#%s: {\n\t%s\n", sk.Def, sk.decl)
		var others []string
		for _, n := range names {
			fmt.Fprintf(&b, "\tif %s == %q {%s}\n", sk.Selector, n, sk.KindDef(n))
			others = append(others, fmt.Sprintf("%s != %q", sk.Selector, n))
		}
		if len(others) == 0 {
			others = []string{"true"}
		}
		fmt.Fprintf(&b, "\tif %s {\n\t\t#%sCommon\n\t\t...\n\t}\n}\n", strings.Join(others, " && "), sk.Def)
	}
	return b.String(), nil
}

// ownCUE splits a component's CUE into its fields (placed inside its
// section's definition) and its own definitions, hoisted to the top level
// as <prefix>_<Name> (#Toolset_rosbridge_Tool) so two components, or a
// component and the schema, may each define a #Tool. References to the
// schema's definitions (#Transport, #Duration) stay as they are.
func ownCUE(prefix, src string) (own, hoisted string, err error) {
	if strings.TrimSpace(src) == "" {
		return "", "", nil
	}
	f, err := parser.ParseFile(prefix+".cue", src, parser.ParseComments)
	if err != nil {
		return "", "", fmt.Errorf("parsing: %w", err)
	}
	defs := map[string]bool{}
	for _, d := range f.Decls {
		if name, ok := defName(d); ok {
			defs[name] = true
		}
	}
	rename := func(name string) string { return prefix + "_" + strings.TrimPrefix(name, "#") }
	astutil.Apply(f, func(c astutil.Cursor) bool {
		if id, ok := c.Node().(*ast.Ident); ok && defs[id.Name] {
			id.Name = rename(id.Name)
		}
		return true
	}, nil)
	var fields, hoist []ast.Decl
	for _, d := range f.Decls {
		switch d.(type) {
		case *ast.Package, *ast.ImportDecl:
			continue
		}
		if _, ok := defName(d); ok {
			hoist = append(hoist, d)
			continue
		}
		fields = append(fields, d)
	}
	if own, err = formatDecls(fields); err != nil {
		return "", "", err
	}
	if hoisted, err = formatDecls(hoist); err != nil {
		return "", "", err
	}
	if hoisted != "" {
		hoisted = "\n" + hoisted + "\n"
	}
	return own, hoisted, nil
}

// defName is the name a declaration defines (#Tool: {...}), if it is a
// definition.
func defName(d ast.Decl) (string, bool) {
	fl, ok := d.(*ast.Field)
	if !ok {
		return "", false
	}
	id, ok := fl.Label.(*ast.Ident)
	if !ok || !strings.HasPrefix(id.Name, "#") {
		return "", false
	}
	return id.Name, true
}

func formatDecls(decls []ast.Decl) (string, error) {
	if len(decls) == 0 {
		return "", nil
	}
	b, err := format.Node(&ast.File{Decls: decls})
	if err != nil {
		return "", fmt.Errorf("formatting: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// instance is one section of a spec that names a component: its kind, the
// name it gives, where it is, and its fields.
type instance struct {
	kind Kind
	name string
	// path is the section's spec path, sels the same as CUE selectors.
	path string
	sels []cue.Selector
	// section is the instance's common fields (with Config, once decoded).
	section func() any
	config  func() any
	// set stores the component's decoded config in the spec.
	set func(cfg any)
}

// instances lists every section of s that names a component: the toolsets,
// the models, the hooks and the user section.
func (s *Spec) instances() []instance {
	var out []instance
	for _, name := range sortedKeys(s.Toolsets) {
		out = append(out, instance{kind: KindToolset, name: s.Toolsets[name].Kind, path: "toolsets." + name,
			sels:    []cue.Selector{cue.Str("toolsets"), cue.Str(name)},
			section: func() any { return s.Toolsets[name] },
			config:  func() any { return s.Toolsets[name].Config },
			set: func(cfg any) {
				ts := s.Toolsets[name]
				ts.Config = cfg
				s.Toolsets[name] = ts
			}})
	}
	for _, m := range []struct {
		path string
		m    *Model
	}{
		{"model", &s.Model},
		{"evaluator.model", s.Evaluator.Model},
		{"context.compaction.compaction_model", s.Context.Compaction.CompactionModel},
		{"memory.consolidation.model", s.Memory.Consolidation.Model},
	} {
		if m.m == nil {
			continue
		}
		var sels []cue.Selector
		for _, p := range strings.Split(m.path, ".") {
			sels = append(sels, cue.Str(p))
		}
		out = append(out, instance{kind: KindProvider, name: m.m.Provider, path: m.path, sels: sels,
			section: func() any { return *m.m }, config: func() any { return m.m.Config },
			set: func(cfg any) { m.m.Config = cfg }})
	}
	for i := range s.Hooks.Pre {
		h := &s.Hooks.Pre[i]
		out = append(out, instance{kind: KindPreAction, name: h.Action, path: indexPath("hooks.pre", i),
			sels:    []cue.Selector{cue.Str("hooks"), cue.Str("pre"), cue.Index(i)},
			section: func() any { return *h }, config: func() any { return h.Config },
			set: func(cfg any) { h.Config = cfg }})
	}
	for i := range s.Hooks.Post {
		h := &s.Hooks.Post[i]
		out = append(out, instance{kind: KindPostAction, name: h.Action, path: indexPath("hooks.post", i),
			sels:    []cue.Selector{cue.Str("hooks"), cue.Str("post"), cue.Index(i)},
			section: func() any { return *h }, config: func() any { return h.Config },
			set: func(cfg any) { h.Config = cfg }})
	}
	out = append(out, instance{kind: KindUserChannel, name: s.User.Channel, path: "user",
		sels:    []cue.Selector{cue.Str("user")},
		section: func() any { return s.User }, config: func() any { return s.User.Config },
		set: func(cfg any) { s.User.Config = cfg }})
	return out
}

// decodeConfigs decodes each section that names a component into the
// component's config type (its Config); false when one does not decode.
func (l *loader) decodeConfigs(s *Spec, unified cue.Value) bool {
	ok := true
	for _, in := range s.instances() {
		d, found := l.opts.Descriptors.Lookup(in.kind, in.name)
		if !found || d.Config == nil {
			continue
		}
		v := unified.LookupPath(cue.MakePath(in.sels...))
		if !v.Exists() {
			continue // a section the spec leaves out (user)
		}
		cfg := reflect.New(reflect.TypeOf(d.Config))
		if err := v.Decode(cfg.Interface()); err != nil {
			l.errorf(l.pos.lookup(in.path), in.path, "decoding the %s %s's fields: %v", in.name, in.kind, err)
			ok = false
			continue
		}
		in.set(cfg.Elem().Interface())
	}
	return ok
}

// selection is the component a section names, as checked so far.
type selection struct {
	sk   *SectionKind
	name string
}

// sectionAt is the sectioned kind whose section stands at a spec path, or
// nil: toolsets.<name>, the four models, hooks.pre[i], hooks.post[i], user.
func sectionAt(path string) *SectionKind {
	sels := splitPath(path)
	switch {
	case len(sels) == 2 && sels[0] == "toolsets":
		return sectionKindOf(KindToolset)
	case path == "model" || path == "evaluator.model" || path == "context.compaction.compaction_model" || path == "memory.consolidation.model":
		return sectionKindOf(KindProvider)
	case len(sels) == 3 && sels[0] == "hooks" && sels[1] == "pre":
		return sectionKindOf(KindPreAction)
	case len(sels) == 3 && sels[0] == "hooks" && sels[1] == "post":
		return sectionKindOf(KindPostAction)
	case path == "user":
		return sectionKindOf(KindUserChannel)
	}
	return nil
}

// selectSchema is the schema of the section at path once it names name
// (its kind's default when it names none): its component's own fields are
// then known. A name nothing registers keeps the schema, open.
func (l *loader) selectSchema(schema cue.Value, path string, sk *SectionKind, name string) cue.Value {
	if name == "" {
		name = sk.deflt
	}
	if name == "" || !schemaField(schema, sk.Selector).Exists() {
		return schema
	}
	v := schema.Unify(l.ctx.CompileString(fmt.Sprintf("{%s: %q}", sk.Selector, name)))
	if v.Err() != nil {
		return schema
	}
	if l.selections == nil {
		l.selections = map[string]selection{}
	}
	l.selections[path] = selection{sk: sk, name: name}
	return v
}

// othersField explains an unknown field inside a section that another
// component of its kind has ("wire" on the script provider): which
// components have it. "" when none does.
func (l *loader) othersField(path string) string {
	for at := parentPath(path); at != ""; at = parentPath(at) {
		s, ok := l.selections[at]
		if !ok {
			continue
		}
		rel := strings.TrimPrefix(path, at+".")
		var have []string
		for _, n := range l.opts.Descriptors.Names(s.sk.Kind) {
			if n != s.name && l.defAllows(s.sk.KindDef(n), rel) {
				have = append(have, n)
			}
		}
		if len(have) == 0 {
			return ""
		}
		return fmt.Sprintf(": %s %q has no such field (%s %s)", s.sk.Kind, s.name, andList(have), map[bool]string{true: "has it", false: "have it"}[len(have) == 1])
	}
	return ""
}

// defAllows reports whether the generated definition def has the field at
// rel (a path inside it).
func (l *loader) defAllows(def, rel string) bool {
	v := l.root.LookupPath(cue.MakePath(cue.Def(def)))
	for _, sel := range splitPath(rel) {
		if _, err := strconv.Atoi(sel); err == nil {
			v = v.LookupPath(cue.MakePath(cue.AnyIndex))
			continue
		}
		if !v.Exists() || !v.Allows(cue.Str(sel)) {
			return false
		}
		v = schemaField(v, sel)
	}
	return v.Exists()
}

// andList is "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
