package engine

import (
	"fmt"
	"strings"
)

// maxToolName is the longest tool name providers accept (OpenAI's limit).
const maxToolName = 64

// badToolName says why a back-end's tool name cannot be offered to a model
// (empty when it can): providers accept only letters, digits, '_', '-' and
// '.', and a name with control characters would reach terminals and logs.
func badToolName(name string) string {
	switch {
	case name == "":
		return "an empty name"
	case len(name) > maxToolName:
		return fmt.Sprintf("a name of %d bytes (at most %d)", len(name), maxToolName)
	}
	if i := strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
	}); i >= 0 {
		return fmt.Sprintf("the character %q at byte %d (names use letters, digits, '_', '-', '.')", name[i:i+1], i)
	}
	return ""
}

// quotedNames quotes each name, so one carrying escape codes prints safely.
func quotedNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// restrict keeps the names allowed by the toolset's Tools list (empty: all) and
// reports listed names the toolset does not have.
func restrict(allowed, have []string) (keep map[string]bool, missing []string) {
	keep = map[string]bool{}
	if len(allowed) == 0 {
		for _, n := range have {
			keep[n] = true
		}
		return keep, nil
	}
	set := map[string]bool{}
	for _, n := range have {
		set[n] = true
	}
	for _, n := range allowed {
		if set[n] {
			keep[n] = true
		} else {
			missing = append(missing, n)
		}
	}
	return keep, missing
}
