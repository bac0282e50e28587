package schema

import (
	"slices"
	"strings"
)

// A spec names a tool either bare ("pick_up") or qualified by its toolset
// ("sim.pick_up"). Validation and the engine resolve every such reference
// through this file, so a spec that validates also starts.

// RefersTo reports whether a spec's tool reference names tool of toolset.
func RefersTo(ref, toolset, tool string) bool {
	if ref == "" {
		return false
	}
	if ref == tool {
		return true
	}
	ts, name, ok := strings.Cut(ref, ".")
	return ok && ts == toolset && name == tool
}

// ContractFor finds the contract of a tool, written with the bare tool name
// or qualified by its toolset; the bare name wins when both are written.
func (s *Spec) ContractFor(toolset, tool string) ToolContract {
	if s == nil {
		return ToolContract{}
	}
	if c, ok := s.Tools[tool]; ok {
		return c
	}
	return s.Tools[toolset+"."+tool]
}

// ToolIndex is what is known of the tools each toolset provides: a list, or
// open when only the running back-end can tell.
type ToolIndex struct {
	sets map[string][]string
	open map[string]bool
}

// NewToolIndex indexes a running session's tools: toolset → tool names.
func NewToolIndex(provided map[string][]string) ToolIndex {
	return ToolIndex{sets: provided, open: map[string]bool{}}
}

// StaticToolIndex is what a spec says its toolsets provide, without
// starting them: a toolset's tools list, else what its kind declares
// (through its registered descriptor), else open.
func StaticToolIndex(s *Spec, c *Descriptors) ToolIndex {
	x := ToolIndex{sets: map[string][]string{}, open: map[string]bool{}}
	for name, ts := range s.Toolsets {
		if len(ts.Tools) > 0 {
			x.sets[name] = ts.Tools
			continue
		}
		d, ok := c.Lookup(KindToolset, ts.Kind)
		if !ok || d.Provides == nil {
			x.open[name] = true
			continue
		}
		tools, open := d.Provides(name, ts)
		x.sets[name] = tools
		x.open[name] = open
	}
	return x
}

// Resolution is the outcome of resolving a tool reference.
type Resolution int

// Outcomes of Resolve.
const (
	// Unknown: no toolset provides the tool, as far as can be known.
	Unknown Resolution = iota
	// Found: exactly one toolset provides it.
	Found
	// Possible: an open toolset may provide it (only a live listing tells).
	Possible
	// Ambiguous: a bare name that several toolsets provide.
	Ambiguous
)

// Resolve finds the toolset and tool a reference names.
func (x ToolIndex) Resolve(ref string) (toolset, tool string, r Resolution) {
	var hits [][2]string
	for set, tools := range x.sets {
		for _, t := range tools {
			if RefersTo(ref, set, t) {
				hits = append(hits, [2]string{set, t})
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0][0], hits[0][1], Found
	case 0:
	default:
		return "", "", Ambiguous
	}
	if set, name, ok := strings.Cut(ref, "."); ok {
		if x.open[set] {
			return set, name, Possible
		}
		if _, known := x.sets[set]; known {
			return "", "", Unknown // a toolset whose tools are all known
		}
	}
	for set := range x.open {
		if x.open[set] {
			return "", ref, Possible
		}
	}
	return "", "", Unknown
}

// Names lists every known tool name (bare), sorted, for suggestions.
func (x ToolIndex) Names() []string {
	var out []string
	for _, tools := range x.sets {
		out = append(out, tools...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ToolRef is one place a spec names a tool.
type ToolRef struct {
	Path string // spec path of the reference, e.g. "observation.tool"
	Ref  string
	// Key marks a reference written as a map key (tools.<name>): its
	// position is the key's, not a value's.
	Key bool
}

// ToolRefs lists every tool reference outside the rules: contract keys, the
// observation, clearance and evidence tools, and rule-test calls.
func (s *Spec) ToolRefs() []ToolRef {
	var refs []ToolRef
	for _, name := range sortedKeys(s.Tools) {
		refs = append(refs, ToolRef{Path: "tools." + name, Ref: name, Key: true})
	}
	for _, r := range []ToolRef{
		{Path: "observation.tool", Ref: s.Observation.Tool},
		{Path: "safety.clearance_tool", Ref: s.Safety.ClearanceTool},
		{Path: "evaluator.evidence", Ref: s.Evaluator.Evidence},
		{Path: "episodes.reset.tool", Ref: s.Episodes.ResetTool()},
	} {
		if r.Ref != "" {
			refs = append(refs, r)
		}
	}
	if rd := s.Safety.Readings; rd != nil {
		r := ToolRef{Path: "safety.readings.tool", Ref: rd.Tool}
		if r.Ref != "" {
			refs = append(refs, r)
		}
	}
	for _, name := range sortedKeys(s.Tools) {
		if v := s.Tools[name].Verify; v != nil && v.Tool != "" {
			refs = append(refs, ToolRef{Path: "tools." + name + ".verify.tool", Ref: v.Tool})
		}
	}
	for i, t := range s.Tests {
		if t.Call != nil && t.Call.Tool != "" {
			refs = append(refs, ToolRef{Path: indexPath("tests", i) + ".call.tool", Ref: t.Call.Tool})
		}
		if t.Check != nil && t.Check.Tool != "" {
			refs = append(refs, ToolRef{Path: indexPath("tests", i) + ".check.tool", Ref: t.Check.Tool})
		}
	}
	return refs
}

// checkToolRefs reports every tool reference no toolset can provide.
func (l *loader) checkToolRefs(s *Spec, ok sections) {
	x := StaticToolIndex(s, l.opts.Descriptors)
	// The registry is flat: one name, one tool.
	owner := map[string]string{}
	for _, set := range sortedKeys(x.sets) {
		for _, t := range x.sets[set] {
			if prev, dup := owner[t]; dup {
				p := "toolsets." + set
				l.errorf(l.pos.lookup(p), p, "tool %q is also provided by toolset %q: tool names must be unique (list the tools each should provide)", t, prev)
				continue
			}
			owner[t] = set
		}
	}
	for _, r := range s.ToolRefs() {
		section, _, _ := strings.Cut(r.Path, ".")
		section, _, _ = strings.Cut(section, "[")
		if !ok.all(section) {
			continue
		}
		pos := l.valuePos(r.Path)
		if r.Key {
			pos = l.pos.lookup(r.Path)
		}
		switch _, _, res := x.Resolve(r.Ref); res {
		case Unknown:
			l.errorf(pos, r.Path, "no toolset provides the tool %q%s", r.Ref, suggest(r.Ref, x.Names()))
		case Ambiguous:
			l.errorf(pos, r.Path, "several toolsets provide a tool %q: qualify it as <toolset>.%s", r.Ref, r.Ref)
		}
	}
}

// TransportPhysical reports whether a toolset's kind runs tool (a name or
// toolset.name) as a motion whatever its contract says, as far as the spec
// tells without starting anything (Descriptor.Physical). A session merges
// the same declaration from the running transport.
func (s *Spec) TransportPhysical(tool string) bool {
	if s == nil {
		return false
	}
	return s.transportPhysical[tool]
}

// staticPhysical collects each toolset kind's Descriptor.Physical, by bare
// and by qualified name.
func staticPhysical(s *Spec, c *Descriptors) map[string]bool {
	out := map[string]bool{}
	for _, set := range sortedKeys(s.Toolsets) {
		ts := s.Toolsets[set]
		d, ok := c.Lookup(KindToolset, ts.Kind)
		if !ok || d.Physical == nil {
			continue
		}
		for _, t := range d.Physical(ts) {
			out[t], out[set+"."+t] = true, true
		}
	}
	return out
}
