package schema

import (
	"reflect"
	"strings"

	"cuelang.org/go/cue"
)

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
