package scaffold

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"

	"github.com/thea-harness/thea/internal/termesc"
)

// cueWriter writes CUE text field by field: every string is quoted by
// CUE's own quoting, every label made safe, every comment one line, and
// the result is formatted by CUE's formatter (which also proves it
// parses).
type cueWriter struct {
	b     strings.Builder
	depth int
	// commented writes every line as a comment (a disabled block), its
	// own indentation after the comment mark, from commentFrom's depth.
	commented   bool
	commentFrom int
}

// raw is CUE text written as it is (a list, a number built here).
type raw string

// cueKeywords cannot be bare labels.
var cueKeywords = map[string]bool{"if": true, "for": true, "in": true, "let": true, "true": true, "false": true,
	"null": true, "import": true, "package": true, "div": true, "mod": true, "quo": true, "rem": true, "_": true}

func label(k string) string {
	if identifier.MatchString(k) && !cueKeywords[k] && !strings.HasPrefix(k, "_") && !strings.HasPrefix(k, "#") {
		return k
	}
	return quote(k)
}

func quote(s string) string { return literal.String.WithGraphicOnly().Quote(s) }

func (w *cueWriter) line(s string) {
	if w.commented {
		w.b.WriteString(strings.Repeat("\t", w.commentFrom) + "// " + strings.Repeat("\t", w.depth-w.commentFrom))
	} else {
		w.b.WriteString(strings.Repeat("\t", w.depth))
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// comment writes a one-line comment (made safe: no line breaks).
func (w *cueWriter) comment(format string, args ...any) {
	w.line("// " + safeComment(fmt.Sprintf(format, args...)))
}

// review writes a REVIEW comment.
func (w *cueWriter) review(format string, args ...any) {
	w.comment("REVIEW: "+format, args...)
}

// safeComment keeps a comment on its line and shows what a reader's
// editor or terminal would act on (C0 and C1 controls, bidi marks,
// embeddings, overrides and isolates) as escapes, as termesc does for the
// terminal: a graph's name cannot reorder what a reviewer reads.
func safeComment(s string) string {
	return termesc.Escape(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s))
}

func (w *cueWriter) blank() { w.b.WriteByte('\n') }

// field writes key: value.
func (w *cueWriter) field(key string, v any) {
	w.line(label(key) + ": " + value(v))
}

func value(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case raw:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	}
	panic(fmt.Sprintf("cueWriter: no CUE form for %T", v))
}

// open starts key: {, close ends it.
func (w *cueWriter) open(key string) {
	w.line(label(key) + ": {")
	w.depth++
}

func (w *cueWriter) close() {
	w.depth--
	w.line("}")
}

// inline is a one-line struct of fields in the order given.
func inline(kv ...any) raw {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, label(kv[i].(string))+": "+value(kv[i+1]))
	}
	return raw("{" + strings.Join(parts, ", ") + "}")
}

// list is a one-line list.
func list(items ...any) raw {
	var parts []string
	for _, it := range items {
		parts = append(parts, value(it))
	}
	return raw("[" + strings.Join(parts, ", ") + "]")
}

// bytes formats the text written.
func (w *cueWriter) bytes() ([]byte, error) {
	out, err := format.Source([]byte(w.b.String()), format.Simplify())
	if err != nil {
		return nil, fmt.Errorf("the drafted spec does not parse (a bug in the draft writer): %w", err)
	}
	return out, nil
}
