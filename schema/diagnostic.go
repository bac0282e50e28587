package schema

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a spec file (1-based line and column).
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func (p Pos) String() string {
	if p.File == "" {
		return "-"
	}
	if p.Line == 0 {
		return p.File // a problem with the file itself
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in a spec, at the user's position.
type Diagnostic struct {
	Pos     Pos    `json:"pos"`
	Path    string `json:"path,omitempty"` // spec path, e.g. hooks.pre[0].rule
	Message string `json:"message"`
	// Warning marks a risk that does not stop the spec from loading.
	Warning bool `json:"warning,omitempty"`
}

func (d Diagnostic) String() string {
	if d.Warning {
		return fmt.Sprintf("%s: warning: %s", d.Pos, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Message)
}

// sortDiagnostics orders diagnostics by file, line, column and message, and
// drops exact duplicates.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Message < b.Message
	})
}

// dedupe drops repeated diagnostics, keeping the first of each. A problem
// in text that several fields share (a YAML anchor's mapping merged or
// aliased into eight clearance sectors, a CUE value referenced by several
// fields) is one problem at one place: it is reported once, at the first
// field, saying how many fields use that text.
func dedupe(ds []Diagnostic) []Diagnostic {
	seen := map[string]bool{}
	first := map[string]int{} // position and text without the path → index in out
	uses := map[int]int{}
	out := ds[:0]
	for _, d := range ds {
		k := d.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		if d.Pos.Line > 0 && d.Path != "" {
			shared := fmt.Sprintf("%s %t %s", d.Pos, d.Warning, strings.TrimPrefix(d.Message, d.Path+": "))
			if i, ok := first[shared]; ok {
				uses[i]++
				continue
			}
			first[shared] = len(out)
		}
		out = append(out, d)
	}
	for i, n := range uses {
		out[i].Message += fmt.Sprintf(" (the text here is used by %d fields, through an alias or a reference: fix it once)", n+1)
	}
	return out
}
