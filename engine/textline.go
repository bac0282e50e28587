package engine

import (
	"strings"

	"github.com/thea-harness/thea/engine/lifetimes"
)

// oneLine is s on one line (runs of white space as one space), bounded to
// limit bytes keeping its beginning and end: a line of Task Notes, of a
// memory record or of a refusal.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	return lifetimes.BoundMiddle(s, limit)
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}
