package schema

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
)

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
