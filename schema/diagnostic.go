package schema

import "fmt"

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
	// Severity is "warning" for a problem that does not stop a run; empty
	// means an error.
	Severity string `json:"severity,omitempty"`
}

// SeverityWarning marks a Diagnostic that does not make the spec invalid.
const SeverityWarning = "warning"

func (d Diagnostic) String() string {
	if d.Severity == SeverityWarning {
		return fmt.Sprintf("%s: warning: %s", d.Pos, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Message)
}
