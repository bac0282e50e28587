package schema

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// CompileRedactPattern compiles a run_log.redact pattern, refusing one that
// can match the empty string: it would insert a marker between every two
// characters of every string the run writes. thea validate and engine.New
// both call it, so what validates starts.
func CompileRedactPattern(p string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("bad regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	tree, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("bad regular expression: %w", err)
	}
	if nullable(tree.Simplify()) {
		return nil, errors.New("the pattern can match the empty string, which would insert [redacted] between the characters of every string an event carries; make it match at least one character (x+ rather than x*)")
	}
	return re, nil
}

// nullable reports whether a regexp can match an empty string somewhere
// (assertions such as ^, $ and \b count as empty: they match no character).
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary,
		syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return false // a character class, any character, no match
}
