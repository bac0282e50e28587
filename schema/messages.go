package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/thea-harness/thea/internal/didyoumean"
)

// CUE's error wording, rewritten in a spec writer's terms.

var (
	mismatch   = regexp.MustCompile(`^conflicting values (.+) and (.+) \(mismatched types (\w+) and (\w+)\)$`)
	outOfBound = regexp.MustCompile(`^invalid value (.+) \(out of bound (.+)\)$`)
	noMatch    = regexp.MustCompile(`^invalid value (.+) \(out of bound =~"(.+)"\)$`)
	// urlScheme is a URL field's pattern: ^https?:// (mcp's url), ^wss?://
	// (rosbridge's).
	urlScheme = regexp.MustCompile(`^\^([a-z]+)s\?://$`)
)

// humanize rewrites CUE's wording of common errors in the user's terms:
// which type was wanted and which given, which bound a value broke.
func humanize(msg string) string {
	if m := mismatch.FindStringSubmatch(msg); m != nil {
		user, userType, want := m[1], m[3], m[4]
		if isConstraint(m[1]) {
			user, userType, want = m[2], m[4], m[3]
		}
		return fmt.Sprintf("want %s, got %s %s", typeName(want), typeName(userType), user)
	}
	if m := noMatch.FindStringSubmatch(msg); m != nil {
		if m[2] == durationPattern {
			return fmt.Sprintf("invalid duration %s (want a Go duration such as \"30s\" or \"1m30s\")", m[1])
		}
		if u := urlScheme.FindStringSubmatch(m[2]); u != nil {
			return fmt.Sprintf("%s does not start with %s:// or %ss://", m[1], u[1], u[1])
		}
		return fmt.Sprintf("%s does not match the pattern %q", m[1], m[2])
	}
	if m := outOfBound.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s is out of range: must be %s", m[1], m[2])
	}
	if strings.Contains(msg, "does not satisfy strings.MinRunes(1)") {
		return "must not be empty"
	}
	return msg
}

// durationPattern is #Duration's regular expression as CUE prints it.
const durationPattern = `^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`

// isConstraint tells a schema side of a conflict (a type, bound or
// reference) from the user's concrete value.
func isConstraint(s string) bool {
	switch s {
	case "string", "int", "number", "float", "bool", "bytes", "null", "_":
		return true
	}
	return strings.ContainsAny(s, "#<>=") || strings.HasPrefix(s, "[...") || strings.HasPrefix(s, "{")
}

// typeName names a CUE kind for a spec writer.
func typeName(k string) string {
	switch k {
	case "struct":
		return "a struct (mapping)"
	case "list":
		return "a list"
	case "int":
		return "an integer"
	case "number", "float":
		return "a number"
	case "bool":
		return "a boolean"
	case "string":
		return "a string"
	}
	return k
}

// crossFieldBounds names the sibling a field's bound refers to, which CUE
// prints only as a number.
var crossFieldBounds = map[string][2]string{
	"context.compaction.reserve_tokens":     {"must be <", "context_window"},
	"context.compaction.keep_recent_tokens": {"must be <", "context_window"},
	"safety.failure_budget.total":           {"must be >=", "consecutive"},
}

// crossFieldNote says which sibling an out-of-range bound came from.
func crossFieldNote(path, msg string) string {
	b, ok := crossFieldBounds[path]
	if !ok || !strings.Contains(msg, b[0]) {
		return msg
	}
	return msg + " (the value of " + b[1] + ")"
}

// suggest returns ` (did you mean "x"?)` for the closest known name, if close.
func suggest(name string, known []string) string { return didyoumean.Suggest(name, known) }

// durationFields are the last path elements of the schema's #Duration fields.
var durationFields = []string{"timeout", "start_timeout", "backoff"}

// durationHint adds the missing unit to a bare number given for a duration
// (YAML `start_timeout: 20`), which CUE reports only as a type mismatch.
func durationHint(path, msg string) string {
	last := path[strings.LastIndex(path, ".")+1:]
	if !slices.Contains(durationFields, last) || !strings.HasPrefix(msg, "want a string, got ") {
		return msg
	}
	n := msg[strings.LastIndex(msg, " ")+1:]
	return fmt.Sprintf("%s: a duration needs a unit, e.g. %q (seconds) or %q", msg, n+"s", n+"ms")
}

// Suggest returns ` (did you mean "x"?)` for the closest of known to name,
// or "" when none is close: the one wording of every name suggestion.
func Suggest(name string, known []string) string { return suggest(name, known) }
