package termesc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes an untrusted string (a model's text, a tool name, a
// back-end's reason, a world file's names) safe to print on a terminal:
// C0 controls (newline included: the renderer puts its own), DEL, C1
// controls, invalid UTF-8 and the Unicode controls that reorder or break
// text (bidi overrides and isolates, line and paragraph separators) are
// shown as Go-style escapes, so an escape sequence (ESC [ 2K, an OSC title
// sequence, a carriage return) cannot move the cursor, erase a line, set
// the window title or forge a line of the trace.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s // the common case: nothing to escape, no allocation
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r, n):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether a decoded rune must not reach a terminal raw.
func unsafeRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size <= 1: // invalid UTF-8: a raw 0x9b is an 8-bit CSI
		return true
	case r < 0x20, r >= 0x7f && r <= 0x9f: // C0, DEL, C1
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, // bidi marks
		r >= 0x202a && r <= 0x202e, // bidi embeddings and overrides
		r >= 0x2066 && r <= 0x2069, // bidi isolates
		r == 0x2028, r == 0x2029:   // line and paragraph separators
		return true
	}
	return false
}

// EscapeJSON makes an encoded JSON text safe to print on a terminal and
// keeps it the same JSON: the runes Escape would show that an encoder
// leaves raw inside strings (DEL, C1 controls, bidi controls) become \u
// escapes, which decode to the same string. C0 controls inside strings are
// escaped by every encoder; outside strings JSON has only its own
// whitespace, which stays. Invalid UTF-8 becomes \ufffd, as a decoder
// reads it.
func EscapeJSON(b []byte) []byte {
	var out []byte
	start := 0
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x7f && unsafeRune(r, n) {
			out = append(out, b[start:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			start = i + n
		}
		i += n
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
}
