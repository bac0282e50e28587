package scaffold

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/thea-harness/thea/toolsets"
)

// Names in a drafted spec. A graph's names come from outside Thea: each is
// checked before it is written as a topic or a type, and each key the spec
// uses (a tool, a reading, a camera, an argument) is made a valid
// identifier, unique among its kind.

var (
	rosName     = regexp.MustCompile(`^/[A-Za-z_~][A-Za-z0-9_/~]*$`)
	rosType     = regexp.MustCompile(`^[A-Za-z0-9_]+/(msg|srv|action)/[A-Za-z0-9_]+$`)
	identifier  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	notIdentRun = regexp.MustCompile(`[^a-z0-9_]+`)
)

// maxIdent bounds a key made from a ROS name (tool names allow 64).
const maxIdent = 48

// canonicalType spells typ as pkg/<kind>/Name, the spelling the spec
// takes (rosapi may say pkg/Name); ok is false for anything else.
func canonicalType(typ, kind string) (string, bool) {
	if strings.Count(typ, "/") == 1 {
		pkg, name, _ := strings.Cut(typ, "/")
		typ = pkg + "/" + kind + "/" + name
	}
	return typ, rosType.MatchString(typ) && strings.Contains(typ, "/"+kind+"/")
}

// namer hands out identifiers unique among one kind of key.
type namer struct {
	taken map[string]bool
	// prefixed are names another part of the spec owns (the core
	// toolset's tools): a key made as one gets prefix, and is listed in
	// renamed.
	prefixed map[string]bool
	prefix   string
	renamed  []renamed
}

// renamed is a key given another name than its ROS name makes.
type renamed struct{ from, name, clash string }

// newToolNamer is the namer of the drafted toolset's tools: besides the
// reserved names, a tool whose name is one of the core toolset's (read
// from the builtin kind, toolsets.BuiltinToolNames) takes the toolset's
// name as a prefix, since tool names are one namespace across toolsets.
func newToolNamer(reserved ...string) *namer {
	n := newNamer(reserved...)
	n.prefix = toolset + "_"
	n.prefixed = map[string]bool{}
	for _, t := range toolsets.BuiltinToolNames() {
		n.prefixed[t] = true
	}
	return n
}

// newNamer reserves the given names and the keywords of CUE and expr (a
// key is read in rules as readings.<name>, args.<name>).
func newNamer(reserved ...string) *namer {
	n := &namer{taken: map[string]bool{}}
	for k := range cueKeywords {
		n.taken[k] = true
	}
	for k := range exprKeywords {
		n.taken[strings.ToLower(k)] = true
	}
	for _, r := range reserved {
		n.taken[r] = true
	}
	return n
}

// name makes a unique identifier of a ROS name or a field path.
func (n *namer) name(from string) string {
	base := strings.Trim(notIdentRun.ReplaceAllString(strings.ToLower(from), "_"), "_")
	if base == "" || !unicode.IsLetter(rune(base[0])) {
		base = "t_" + base
	}
	base = strings.TrimRight(base[:min(len(base), maxIdent)], "_")
	clash := ""
	if n.prefixed[base] {
		clash, base = base, n.prefix+base
	}
	name := base
	for i := 2; n.taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	n.taken[name] = true
	if clash != "" {
		n.renamed = append(n.renamed, renamed{from: from, name: name, clash: clash})
	}
	return name
}

// Bounds of text from the graph quoted in a comment: a name, a note.
const (
	maxNameChars = 80
	maxNoteChars = 400
)

// safeText is a name from the graph made fit for a one-line comment: no
// control characters (a newline would end the comment), bounded.
func safeText(s string) string { return safeBounded(s, maxNameChars) }

// safeNote is safeText for a longer note (rosapi's error text).
func safeNote(s string) string { return safeBounded(s, maxNoteChars) }

func safeBounded(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) || r == unicode.ReplacementChar {
			return '?'
		}
		return r
	}, s)
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}
