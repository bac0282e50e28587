package redact

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A secret in JSON text can be spelled many ways a JSON reader decodes to
// the same string: "\u0037" for "7", "\/" for "/", mixed-case hex, a
// surrogate pair for a character outside the BMP. Raw JSON text (a tool
// call's arguments as the model wrote them, a json.RawMessage) is
// therefore matched as the strings and numbers it decodes to, never as its
// bytes alone.

// JSONText returns s, text that holds or may hold JSON (a tool call's
// arguments as the model wrote them), without any secret in any spelling a
// JSON reader decodes. Valid JSON stays valid JSON (redacted as
// json.RawMessage is); other text has each string literal in it decoded as
// JSON would, and replaced by its redacted form when that holds a secret,
// and its numbers and other text redacted as they stand.
func (r *Redactor) JSONText(s string) string {
	if !r.Active() {
		return s
	}
	if out, ok := r.rawJSON([]byte(s)); ok {
		return string(out)
	}
	return s
}

// JSON is JSONText for JSON held as bytes (an envelope just encoded):
// raw itself when nothing changes, so the common case copies nothing.
func (r *Redactor) JSON(raw []byte) []byte {
	if !r.Active() {
		return raw
	}
	out, _ := r.rawJSON(raw)
	return out
}

// rawJSON redacts raw JSON text; ok is false when nothing changed.
func (r *Redactor) rawJSON(raw []byte) ([]byte, bool) {
	if r.rawClean(raw) {
		return raw, false
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		// Not JSON (a truncated object): its string literals are still
		// what a lenient reader would decode.
		out := r.scanText(raw)
		return out, !bytes.Equal(out, raw)
	}
	if str, ok := doc.(string); ok {
		// A JSON string alone is how a provider adapter keeps arguments
		// that were not valid JSON (model.ArgumentsFromText): text that a
		// lenient reader decodes again, so it is redacted as JSON text.
		red := r.JSONText(str)
		if red == str {
			return raw, false
		}
		b, _ := json.Marshal(red) // a string always encodes
		return b, true
	}
	red, ok := r.walkJSON(doc, 0)
	if !ok {
		return raw, false
	}
	b, err := json.Marshal(red)
	if err != nil {
		return []byte(`"` + Marker + `"`), true
	}
	return b, true
}

// scanText redacts text that is not valid JSON: each string literal (an
// unterminated one runs to the end) is decoded as a JSON reader would and,
// when the decoded string holds a secret, written back as the JSON string
// of its redacted form; each number literal is matched as a number; the
// text between them is redacted as text.
func (r *Redactor) scanText(raw []byte) []byte {
	var out []byte
	plain := 0 // start of the text not yet written
	flush := func(end int) {
		out = append(out, r.String(string(raw[plain:end]))...)
	}
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			j := literalEnd(raw, i+1)
			body := raw[i+1 : j]
			end := j
			if j < len(raw) {
				end = j + 1 // the closing quote
			}
			dec := unquote(body)
			if r.holds(dec) || r.holdsRaw(body) {
				flush(i)
				enc, _ := json.Marshal(r.String(dec)) // a string always encodes
				out = append(out, enc...)
				plain = end
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(raw) && isNumberChar(raw[j]) {
				j++
			}
			if r.holdsNumberLiteral(string(raw[i:j])) {
				flush(i)
				out = append(out, `"`+Marker+`"`...)
				plain = j
			}
			i = j
		default:
			i++
		}
	}
	flush(len(raw))
	return out
}

// literalEnd returns the index of the quote closing the string literal
// whose body starts at i, or len(raw) when it is not closed.
func literalEnd(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case '\\':
			i += 2
		case '"':
			return i
		default:
			i++
		}
	}
	return len(raw)
}

// unquote decodes a string literal's body as encoding/json does: the
// escapes \" \\ \/ \b \f \n \r \t and \uXXXX (hex in either case, a
// surrogate pair as one character, a lone surrogate or invalid UTF-8 as
// U+FFFD). An escape JSON does not know is kept as written, as a lenient
// reader would.
func unquote(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			ch, n := utf8.DecodeRune(b[i:])
			sb.WriteRune(ch) // utf8.RuneError for an invalid byte, as JSON
			i += n
			continue
		}
		if i+1 >= len(b) {
			sb.WriteByte('\\')
			break
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			sb.WriteByte(e)
			i += 2
		case 'b':
			sb.WriteByte('\b')
			i += 2
		case 'f':
			sb.WriteByte('\f')
			i += 2
		case 'n':
			sb.WriteByte('\n')
			i += 2
		case 'r':
			sb.WriteByte('\r')
			i += 2
		case 't':
			sb.WriteByte('\t')
			i += 2
		case 'u':
			r1, ok := hex4(b, i+2)
			if !ok {
				sb.Write(b[i : i+2])
				i += 2
				continue
			}
			i += 6
			if utf16.IsSurrogate(r1) {
				if r2, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if ch := utf16.DecodeRune(r1, r2); ch != utf8.RuneError {
						sb.WriteRune(ch)
						i += 6
						continue
					}
				}
				r1 = utf8.RuneError
			}
			sb.WriteRune(r1)
		default:
			sb.Write(b[i : i+2])
			i += 2
		}
	}
	return sb.String()
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
