package schema

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// What the model reads must not contradict the body: a description that
// sends it to a tool it is not offered, or a profile limit nothing enforces,
// is a contract the run does not keep. Both are warnings, since a spec may
// mean them; `thea validate --live` repeats the first over the back-ends'
// own descriptions, once the offered tools are known.

// ToolMention is a tool name that a text the model reads names, though the
// model is not offered that tool.
type ToolMention struct {
	Name string // as written: "get_clearance", "sim.get_clearance"
	// Hidden: the harness calls the tool, but it is not offered to the model.
	Hidden bool
}

// UnofferedTools lists the tool names text sends the model to that it is
// not offered. Only snake_case tokens (two words or more, maybe qualified
// by a toolset) are read, and only two kinds count, so argument and object
// names (distance_m, top_drawer) are not taken for tools:
//   - a hidden tool's name, wherever it stands (hidden says which are);
//   - a token standing where a tool's name stands ("call X", "use X",
//     "X(", "X first", "X tool") that resolves to no tool (resolve gives
//     Unknown; Possible, an open toolset's, is left to a live check).
func UnofferedTools(text string, hidden func(ref string) bool, resolve func(ref string) Resolution) []ToolMention {
	var out []ToolMention
	seen := map[string]bool{}
	for _, tk := range toolShapedTokens(text) {
		if seen[tk.name] {
			continue
		}
		switch {
		case hidden(tk.name):
			out = append(out, ToolMention{Name: tk.name, Hidden: true})
		case standsAsTool(text, tk) && resolve(tk.name) == Unknown:
			out = append(out, ToolMention{Name: tk.name})
		default:
			continue
		}
		seen[tk.name] = true
	}
	return out
}

// wordSpan is a tool-shaped word of a text and its byte span.
type wordSpan struct {
	name       string
	start, end int
}

// toolShapedTokens finds the words made of lower-case letters, digits,
// underscores and at most one dot that have an underscore between two
// letters or digits: pick_up, get_clearance, sim.get_clearance.
func toolShapedTokens(text string) []wordSpan {
	// Bytes, not runes: a tool name is ASCII, and a multi-byte rune's bytes
	// are never among these.
	lowerOrDigit := func(b byte) bool { return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' }
	word := func(b byte) bool { return b == '_' || b == '.' || lowerOrDigit(b) }
	var out []wordSpan
	for i := 0; i < len(text); {
		if !lowerOrDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && word(text[j]) {
			j++
		}
		name := strings.TrimRight(text[i:j], "._") // a sentence's full stop
		// Not the tail of a longer word: an upper-case letter before it
		// (Get_clearance) makes it no tool name.
		glued := i > 0 && 'A' <= text[i-1] && text[i-1] <= 'Z'
		if isToolShaped(name) && !glued {
			out = append(out, wordSpan{name: name, start: i, end: i + len(name)})
		}
		i = j
	}
	return out
}

func isToolShaped(name string) bool {
	set, tool, qualified := strings.Cut(name, ".")
	if qualified && (set == "" || strings.Contains(tool, ".")) {
		return false
	}
	if !qualified {
		tool = set
	}
	parts := strings.Split(tool, "_")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !unicode.IsLetter(rune(p[0])) && !unicode.IsDigit(rune(p[0])) {
			return false
		}
	}
	return unicode.IsLetter(rune(tool[0]))
}

// standsAsTool says whether tk stands where a sentence names a tool.
func standsAsTool(text string, tk wordSpan) bool {
	before := strings.ToLower(text[:tk.start])
	after := strings.ToLower(text[tk.end:])
	for _, p := range []string{"call ", "calling ", "use "} {
		if strings.HasSuffix(before, p) {
			return true
		}
	}
	for _, s := range []string{"(", " first", " tool"} {
		if strings.HasPrefix(after, s) {
			return true
		}
	}
	return false
}

// hiddenTool says whether a tool reference names a tool the spec hides.
func (s *Spec) hiddenTool(ref string) bool {
	if c, ok := s.Tools[ref]; ok {
		return c.Hidden
	}
	set, name, qualified := strings.Cut(ref, ".")
	if qualified {
		return s.Tools[name].Hidden
	}
	for key, c := range s.Tools {
		if _, n, ok := strings.Cut(key, "."); ok && n == set && c.Hidden {
			return true
		}
	}
	return false
}

// MentionMessage is what validate says of a mention, offline or live.
func MentionMessage(m ToolMention, offered []string) string {
	if m.Hidden {
		return fmt.Sprintf("names %s, a hidden tool: the model is not offered it (a call returns \"unknown tool\"); say what the observation or the harness gives instead", m.Name)
	}
	return fmt.Sprintf("names %s as a tool, but no toolset offers it%s (a call returns \"unknown tool\")", m.Name, suggest(m.Name, offered))
}

// checkDescriptionTools warns at a contract's description, and at the
// system prompt, for each tool they send the model to that it is not
// offered, as far as the spec's toolsets tell without starting them.
func (l *loader) checkDescriptionTools(s *Spec) {
	x := StaticToolIndex(s, l.opts.Descriptors)
	offered := slices.DeleteFunc(x.Names(), s.hiddenTool)
	resolve := func(ref string) Resolution {
		_, _, r := x.Resolve(ref)
		return r
	}
	warn := func(path, text string) {
		for _, m := range UnofferedTools(text, s.hiddenTool, resolve) {
			l.warnf(l.valuePos(path), path, "%s", MentionMessage(m, offered))
		}
	}
	warn("system_prompt", s.SystemPrompt)
	for _, name := range sortedKeys(s.Tools) {
		if c := s.Tools[name]; !c.Hidden {
			warn("tools."+name+".description", c.Description)
		}
	}
}

// motionLimits are the fixed limits that bound a commanded motion, so a
// hook can enforce them on the call's arguments. The others describe the
// body (reach_m, payload_kg, max_speed_mps: the back-end's policies and
// controllers keep them) or shape other limits (min_clearance_m is applied
// by the clearance reading itself, safety_margin_m is subtracted in rules).
func motionLimits() []string { return []string{"max_translation_m", "max_rotation_deg"} }

// checkLimitsEnforced warns at a limit the model reads in the Embodiment
// Profile that no pre-hook rule reads, where the spec shows it enforces
// such limits in hooks: a motion limit when the hooks read another motion
// limit, a limit the spec declares itself when they read any limit. A spec
// whose hooks read no limit uses the profile only to inform, and is left
// alone.
func (l *loader) checkLimitsEnforced(s *Spec) {
	read := map[string]bool{}
	for _, h := range s.Hooks.Pre {
		for _, src := range append([]string{h.When, h.Rule}, exprSources(h.hookExprs())...) {
			for _, n := range limitsIn(src) {
				read[n] = true
			}
		}
	}
	lim := s.Embodiment.Limits
	values := map[string]float64{"max_translation_m": lim.MaxTranslationM, "max_rotation_deg": lim.MaxRotationDeg}
	var names []string
	if slices.ContainsFunc(motionLimits(), func(n string) bool { return read[n] }) {
		names = motionLimits()
	}
	if len(read) > 0 {
		for _, k := range sortedKeys(lim.Extra) {
			values[k] = lim.Extra[k]
			names = append(names, k)
		}
	}
	for _, n := range names {
		if read[n] || values[n] == 0 {
			continue
		}
		p := "embodiment.limits." + n
		l.warnf(l.valuePos(p), p, "the model reads this limit in the Embodiment Profile, but no pre-hook rule reads limits.%s, so no call is held to it; clamp or block the argument it bounds with a rule that reads it", n)
	}
}

func exprSources(es []HookExpr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Src
	}
	return out
}

// limitsIn lists the limit names an expression reads (limits.X).
func limitsIn(src string) []string {
	if src == "" {
		return nil
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	var out []string
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		if m, ok := n.(*ast.MemberNode); ok {
			if id, ok := m.Node.(*ast.IdentifierNode); ok && id.Value == "limits" {
				if p, ok := m.Property.(*ast.StringNode); ok {
					out = append(out, p.Value)
				}
			}
		}
	}))
	return out
}
