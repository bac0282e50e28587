package schema

import (
	"fmt"
	"slices"
	"strings"

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
