package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/rules"
)

// ArgRead is one argument name a spec reads: `args.X` (or args["X"]) in an
// expression, a clamp's arg, a rewrite's key. thea validate --live checks
// it against the real input schemas of the tools it applies to.
type ArgRead struct {
	Path string // spec path of the expression or field
	Arg  string
	// Line and Col are where args.X stands inside the expression (1-based;
	// 0 for a field naming the argument, a clamp's arg or a rewrite key).
	Line, Col int
	// At is where the read stands in the spec file: the argument's name
	// inside the expression, or the field naming it.
	At Pos
	// Tool is the one tool the read applies to (a contract's check or
	// verify args); empty for a hook, which applies to what its when selects.
	Tool string
	// PreHook is the index of the pre-hook the read belongs to, or -1.
	PreHook int
}

// ArgReads lists every argument name the spec's rules read.
func (s *Spec) ArgReads() []ArgRead {
	var out []ArgRead
	add := func(path, src, tool string, hook int) {
		for _, a := range rules.Args(src) {
			at, ok := s.argPos[argPosKey(path, a.Line, a.Col)]
			if !ok {
				at = s.Pos(path)
			}
			out = append(out, ArgRead{Path: path, Arg: a.Name, Line: a.Line, Col: a.Col, At: at, Tool: tool, PreHook: hook})
		}
	}
	for i, h := range s.Hooks.Pre {
		p := indexPath("hooks.pre", i)
		add(p+".when", h.When, "", i)
		add(p+".rule", h.Rule, "", i)
		for _, a := range h.hookArgs() {
			out = append(out, ArgRead{Path: p + "." + a.Field, Arg: a.Arg, At: s.Pos(p + "." + a.Field), PreHook: i})
		}
		for _, e := range h.hookExprs() {
			add(p+"."+e.Field, e.Src, "", i)
		}
	}
	for _, name := range sortedKeys(s.Tools) {
		c := s.Tools[name]
		add("tools."+name+".check", c.Check, name, -1)
		if c.Verify != nil {
			for _, k := range sortedKeys(c.Verify.Args) {
				add("tools."+name+".verify.args."+k, c.Verify.Args[k], name, -1)
			}
		}
		for i, e := range c.Effects {
			p := fmt.Sprintf("tools.%s.effects[%d]", name, i)
			add(p+".of", e.Of, name, -1)
			add(p+".to", e.To, name, -1)
			add(p+".kind", e.Kind, name, -1)
		}
	}
	return out
}

// argPosKey names one argument read inside the expression at path.
func argPosKey(path string, line, col int) string { return fmt.Sprintf("%s@%d:%d", path, line, col) }

// argPositions finds, once at load, where each argument an expression reads
// stands in the spec file, so a later check (validate --live, against the
// running back-end's input schemas) reports it at the expression, as the
// static check does.
func (l *loader) argPositions(s *Spec) map[string]Pos {
	out := map[string]Pos{}
	for _, r := range s.ArgReads() {
		if r.Line > 0 {
			out[argPosKey(r.Path, r.Line, r.Col)] = l.exprPos(RuleError{Path: r.Path, Line: r.Line, Col: r.Col})
		}
	}
	return out
}

// RuleToolRefs lists the tool names rules compare tool.name with
// (`tool.name == 'x'`, `tool.name in ['x', 'y']`).
func (s *Spec) RuleToolRefs() []ToolRef {
	var out []ToolRef
	add := func(path, src string) {
		for _, r := range rules.Refs(src) {
			if r.Kind == rules.RefTool {
				out = append(out, ToolRef{Path: path, Ref: r.Name})
			}
		}
	}
	for i, h := range s.Hooks.Pre {
		p := indexPath("hooks.pre", i)
		add(p+".when", h.When)
		add(p+".rule", h.Rule)
	}
	for i, h := range s.Hooks.Post {
		add(fmt.Sprintf("hooks.post[%d].when", i), h.When)
	}
	return out
}

// checkArgReads reports an argument a contract's check, verify args or
// effects read that its tool does not take, where the tool's arguments are
// known without starting anything (a builtin tool's input schema); the
// others are checked by validate --live.
func (l *loader) checkArgReads(s *Spec) {
	x := StaticToolIndex(s, l.opts.Descriptors)
	for _, r := range s.ArgReads() {
		if r.Tool == "" {
			continue
		}
		set, tool, res := x.Resolve(r.Tool)
		if res != Found {
			continue
		}
		d, ok := l.opts.Descriptors.Lookup(KindToolset, s.Toolsets[set].Kind)
		if !ok || d.Args == nil {
			continue
		}
		args, known := d.Args(s.Toolsets[set], tool)
		if !known || slices.Contains(args, r.Arg) {
			continue
		}
		pos := l.valuePos(r.Path)
		if r.Line > 0 {
			pos = l.exprPos(RuleError{Path: r.Path, Line: r.Line, Col: r.Col})
		}
		takes := "it takes no arguments"
		if len(args) > 0 {
			takes = "its arguments: " + strings.Join(args, ", ")
		}
		l.errorf(pos, r.Path, "reads args.%s, but the tool %s has no argument %q%s (%s)", r.Arg, tool, r.Arg, suggest(r.Arg, args), takes)
	}
}
