package redact

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// maxPlainDigits: an integer literal of up to 15 digits is exact as a
// float64 and written back by encoding/json with the same digits.
const maxPlainDigits = 15

// rawClean reports, without decoding, that a json.RawMessage holds nothing
// to redact: model requests carry the same tool schemas and earlier call
// arguments at every turn, and decoding each of them every time would cost
// more than the rest of the turn. It answers true only when decoding could
// not reveal anything the raw text hides: the text is valid JSON and UTF-8
// without a backslash (every string and key decodes to its bytes between
// quotes),
// every number decodes and prints as written (see canonicalNumber), and
// no string, key or number holds a secret or matches a pattern. Anything
// else takes the decoding path.
func (r *Redactor) rawClean(raw []byte) bool {
	if bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) || !json.Valid(raw) {
		return false
	}
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			j := bytes.IndexByte(raw[i+1:], '"') // no escapes: the next quote closes it
			if r.holdsRaw(raw[i+1 : i+1+j]) {
				return false
			}
			i += j + 2
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(raw) && isNumberChar(raw[j]) {
				j++
			}
			if !canonicalNumber(raw[i:j]) || r.holdsRaw(raw[i:j]) {
				return false
			}
			i = j
		default:
			i++
		}
	}
	return true
}

// holdsRaw is holds for a piece of a raw message (already on the heap, so
// matching it allocates nothing).
func (r *Redactor) holdsRaw(b []byte) bool {
	for _, sec := range r.candidateBytes(b) {
		if bytes.Contains(b, sec) {
			return true
		}
	}
	for _, re := range r.patterns {
		if re.Match(b) {
			return true
		}
	}
	return false
}

// canonicalNumber reports whether a number literal decodes to a float64
// that encoding/json writes back as the same text (1, -2, 0.5; not 1e3,
// 0.50 or a 17-digit integer), so matching the literal matches the number.
func canonicalNumber(b []byte) bool {
	if plainInteger(b) {
		return true
	}
	if len(b) > 32 || bytes.ContainsAny(b, "eE") {
		return false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return false
	}
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return false // written with an exponent
	}
	var buf [32]byte
	return bytes.Equal(strconv.AppendFloat(buf[:0], f, 'f', -1, 64), b)
}

// plainInteger: an optional minus and at most maxPlainDigits digits.
func plainInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > maxPlainDigits {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isNumberChar(c byte) bool {
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'
}
