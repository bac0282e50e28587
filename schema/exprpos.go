package schema

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/thea-harness/thea/internal/readfile"
)

// exprPos translates a position inside an expression (RuleError.Line/Col)
// into the spec file's position. The expression's text is found in the file
// from the literal's position on, so quoted, plain, multi-line CUE and YAML
// block strings all work; with escapes in the way it falls back to the
// literal's own position.
func (l *loader) exprPos(e RuleError) Pos {
	lit := l.valuePos(e.Path)
	if e.Line < 1 || lit.File == "" || lit.Line < 1 {
		return lit
	}
	src := l.exprSource(e.Path)
	exprLines := strings.Split(src, "\n")
	if e.Line > len(exprLines) {
		return lit
	}
	want := exprLines[e.Line-1]
	lines := l.fileLines(lit.File)
	start := lit.Col - 1
	for ln := lit.Line + e.Line - 2; ln < len(lines) && ln < lit.Line+e.Line+2; ln++ {
		text := lines[ln]
		if start > len(text) {
			start = 0
		}
		if i := strings.Index(text[start:], want); i >= 0 && want != "" {
			return Pos{File: lit.File, Line: ln + 1, Col: start + i + e.Col}
		}
		start = 0
	}
	// Folded (a YAML > block, a plain scalar over several lines): the
	// expression's lines are not the file's, but its characters other than
	// spaces are, in order.
	if p, ok := alignPos(lines, lit, src, e.Line, e.Col); ok {
		return p
	}
	return lit
}

// alignPos finds the file position of the expression's (line, col) by
// matching the expression's characters other than white space, in order,
// against the file's from the literal on: a folded YAML string changes only
// line breaks and spaces. A quote or a YAML block indicator before the text
// is skipped, and so are a double-quoted string's escapes of " and \ and a
// single-quoted string's doubled '. Anything else that does not match ends
// the search.
func alignPos(lines []string, lit Pos, src string, line, col int) (Pos, bool) {
	target := []rune(strings.Split(src, "\n")[line-1])
	if col < 1 || col > len(target) {
		return Pos{}, false
	}
	// skip counts the expression's non-space runes before the target.
	skip := 0
	for _, l := range strings.Split(src, "\n")[:line-1] {
		skip += nonSpace(l)
	}
	skip += nonSpace(string(target[:col-1]))
	ln, at := lit.Line-1, lit.Col-1
	if ln < 0 || ln >= len(lines) || at > len(lines[ln]) {
		return Pos{}, false
	}
	quote := byte(0)
	switch rest := strings.TrimLeft(lines[ln][at:], " "); {
	case strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, ">") || strings.HasPrefix(rest, `"""`):
		ln, at = ln+1, 0 // a block's text starts on the next line
	case strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "'"):
		quote = rest[0]
		at = len(lines[ln]) - len(rest) + 1
	}
	want := []rune(strings.Join(strings.Fields(src), ""))
	n := 0
	for ; ln < len(lines) && ln < lit.Line+200; ln, at = ln+1, 0 {
		text := lines[ln]
		for i := at; i < len(text); i++ {
			c := text[i]
			if c == ' ' || c == '\t' || c == '\r' {
				continue
			}
			if n == skip {
				return Pos{File: lit.File, Line: ln + 1, Col: i + 1}, true
			}
			if n >= len(want) {
				return Pos{}, false
			}
			if quote == '"' && strings.HasPrefix(text[i:], `\(`) {
				// A CUE interpolation: its value's length is unknown, so the
				// literal text after it is found in the expression instead. A
				// mistake inside the interpolated text is at the \(.
				end, next, ok := interpolationEnd(text, i, want[n:])
				if !ok {
					return Pos{}, false
				}
				if skip < n+next {
					return Pos{File: lit.File, Line: ln + 1, Col: i + 1}, true
				}
				n += next
				i = end
				continue
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			switch {
			case r == want[n]:
			case quote == '"' && c == '\\' && i+1 < len(text) && rune(text[i+1]) == want[n]:
				size++ // an escaped " or \ stands for one character
			case quote == '\'' && c == '\'' && i+1 < len(text) && text[i+1] == '\'' && want[n] == '\'':
				size++ // '' stands for '
			default:
				return Pos{}, false
			}
			n++
			i += size - 1
		}
	}
	return Pos{}, false
}

// interpolationEnd reads the CUE interpolation \( … ) starting at text[i]:
// end is the index of its closing parenthesis, next how many runes of want
// its value stands for (found by where the literal text after it, up to the
// next interpolation or the closing quote, comes in want).
func interpolationEnd(text string, i int, want []rune) (end, next int, ok bool) {
	depth := 0
	end = -1
	for j := i + 1; j < len(text); j++ {
		if text[j] == '(' {
			depth++
		} else if text[j] == ')' {
			if depth--; depth == 0 {
				end = j
				break
			}
		}
	}
	if end < 0 {
		return 0, 0, false
	}
	after := text[end+1:]
	if k := strings.Index(after, `\(`); k >= 0 {
		after = after[:k]
	}
	if k := strings.IndexByte(after, '"'); k >= 0 {
		after = after[:k]
	}
	frag := []rune(strings.Join(strings.Fields(after), ""))
	if len(frag) == 0 {
		return end, len(want), true
	}
	for k := 0; k+len(frag) <= len(want); k++ {
		if string(want[k:k+len(frag)]) == string(frag) {
			return end, k, true
		}
	}
	return 0, 0, false
}

// nonSpace counts the runes of s other than white space.
func nonSpace(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// exprSource returns the expression text written at a rule path, from the
// compiled spec's hooks and tools.
func (l *loader) exprSource(path string) string {
	if l.spec == nil {
		return ""
	}
	return ruleSource(l.spec, path)
}

// fileLines returns a user file's lines, cached per load.
func (l *loader) fileLines(file string) []string {
	if ls, ok := l.lines[file]; ok {
		return ls
	}
	b, err := readfile.Read(l.opts.Context, file, readfile.Spec)
	if err != nil {
		return nil
	}
	ls := strings.Split(string(b), "\n")
	if l.lines == nil {
		l.lines = map[string][]string{}
	}
	l.lines[file] = ls
	return ls
}

// ruleSource returns the expression at a rule path such as
// hooks.pre[1].clamp.max or tools.pick_up.check ("" when unknown).
func ruleSource(s *Spec, path string) string {
	sels := splitPath(path)
	idx := func(i string, n int) (int, bool) {
		k := 0
		for _, c := range i {
			if c < '0' || c > '9' {
				return 0, false
			}
			k = k*10 + int(c-'0')
		}
		return k, k < n
	}
	switch {
	case len(sels) >= 4 && sels[0] == "hooks" && sels[1] == "pre":
		i, ok := idx(sels[2], len(s.Hooks.Pre))
		if !ok {
			return ""
		}
		h := s.Hooks.Pre[i]
		switch field := strings.Join(sels[3:], "."); field {
		case "when":
			return h.When
		case "rule":
			return h.Rule
		default:
			for _, e := range h.hookExprs() {
				if e.Field == field {
					return e.Src
				}
			}
		}
	case len(sels) == 4 && sels[0] == "hooks" && sels[1] == "post" && sels[3] == "when":
		if i, ok := idx(sels[2], len(s.Hooks.Post)); ok {
			return s.Hooks.Post[i].When
		}
	case len(sels) == 3 && sels[0] == "tools" && sels[2] == "check":
		return s.Tools[sels[1]].Check
	case len(sels) == 5 && sels[0] == "tools" && sels[2] == "verify" && sels[3] == "args":
		if v := s.Tools[sels[1]].Verify; v != nil {
			return v.Args[sels[4]]
		}
	case len(sels) == 5 && sels[0] == "tools" && sels[2] == "effects":
		effs := s.Tools[sels[1]].Effects
		if i, ok := idx(sels[3], len(effs)); ok {
			return map[string]string{"of": effs[i].Of, "to": effs[i].To, "kind": effs[i].Kind}[sels[4]]
		}
	}
	return ""
}
