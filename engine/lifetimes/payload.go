package lifetimes

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Payloads inside text: a tool result's text may carry a
// base64 image, a data: URI, hex or raw binary. Compaction inputs get a
// short placeholder instead, as image parts already do, so no summary
// request spends its budget on (or leaks) encoded media.

var (
	dataURI = regexp.MustCompile(`data:[\w.+-]{1,64}/[\w.+-]{1,64}(?:;[\w.+=-]{1,64})*;base64,[A-Za-z0-9+/=_-]*`)
	// A base64 or hex run long enough that it cannot be prose or a name.
	base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{200,}={0,2}`)
	hexRun    = regexp.MustCompile(`[0-9a-fA-F]{128,}`)
	// JSON-escaped control bytes, the way binary shows in an envelope's JSON.
	escapedBinary = regexp.MustCompile(`(?:\\u00[01][0-9a-fA-F]|\\[bfnrt]){8,}`)
)

// minBinaryRun is the fewest binary runes a replaced region holds;
// binaryGap the most text runes between two binary runes of one region.
const (
	minBinaryRun = 8
	binaryGap    = 8
)

// stripPayloads replaces encoded and binary payloads in s by bounded
// placeholders naming their kind and size. Text that cannot hold one (most
// text) is returned as it is after one pass over its bytes.
func stripPayloads(s string) string {
	if !mayHoldPayload(s) {
		return s
	}
	return replacePayloads(s)
}

// BoundResult is the text Accumulated context keeps of a tool result or of
// a response's reasoning: s bounded to limit bytes keeping its beginning and
// end (BoundMiddle), with its payloads replaced by placeholders first when it
// is over limit. The order matters: a cut through a payload leaves a piece
// at each side of the marker, each shorter than the detector's run, which
// then reach every later request and compaction as they are.
func BoundResult(s string, limit int) string {
	if limit > 0 && len(s) > limit {
		s = stripPayloads(s)
	}
	return BoundMiddle(s, limit)
}

// payloadRun is the shortest run of base64 characters (hex digits among
// them) that a payload pattern matches: hexRun's 128; base64Run needs 200.
const payloadRun = 128

// mayHoldPayload reports whether s may hold what replacePayloads replaces:
// a binary rune, "data:", a run of payloadRun characters of the base64
// alphabet, or the eight backslashes of an escaped binary run. Without any
// of these no pattern can match.
func mayHoldPayload[T ~string | ~[]byte](s T) bool {
	run, slashes := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			if isBinary(r) {
				return true
			}
			run = 0
			i += size
			continue
		}
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-':
			if run++; run >= payloadRun {
				return true
			}
			i++
			continue
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
			return true
		case c == '\\':
			if slashes++; slashes >= 8 {
				return true
			}
		case c == ':' && i >= 4 && s[i-4] == 'd' && s[i-3] == 'a' && s[i-2] == 't' && s[i-1] == 'a':
			return true
		}
		run = 0
		i++
	}
	return false
}

// replacePayloads is stripPayloads without the quick check.
func replacePayloads(s string) string {
	// Raw bytes first: their escapes (\ufffd) then read as text, so a second
	// pass finds nothing new.
	s = stripBinary(s)
	s = dataURI.ReplaceAllStringFunc(s, func(m string) string {
		mime, _, _ := strings.Cut(strings.TrimPrefix(m, "data:"), ";")
		return fmt.Sprintf("[%s data URI omitted: %d chars]", clipMIME(mime), len(m))
	})
	s = base64Run.ReplaceAllStringFunc(s, func(m string) string {
		if !mixed(m) {
			return m
		}
		return fmt.Sprintf("[base64 payload omitted: %d chars]", len(m))
	})
	s = hexRun.ReplaceAllStringFunc(s, func(m string) string {
		return fmt.Sprintf("[hex payload omitted: %d chars]", len(m))
	})
	s = escapedBinary.ReplaceAllStringFunc(s, func(m string) string {
		if strings.Count(m, `\u00`) < 4 { // escaped newlines and tabs of text
			return m
		}
		return fmt.Sprintf("[binary payload omitted: %d bytes]", strings.Count(m, `\`))
	})
	return s
}

// mixed reports whether a run looks like encoded bytes: upper case, lower
// case and digits, and many distinct characters (a long word, a path or a
// padded line has few).
func mixed(s string) bool {
	var upper, lower, digit bool
	var seen [256]bool
	distinct := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
		if !seen[c] {
			seen[c] = true
			distinct++
		}
	}
	return upper && lower && digit && distinct >= 24
}

func clipMIME(m string) string {
	if len(m) > 64 {
		return m[:64]
	}
	return m
}

// stripBinary replaces regions dense in binary runes (invalid UTF-8, NUL
// and other control bytes except tab and newlines, U+FFFD) by a placeholder.
// A region goes on while binary runes are at most binaryGap runes apart, as
// in random bytes, where printable ASCII is common; a stray control byte is
// shown escaped instead.
func stripBinary(s string) string {
	clean := true
	for _, r := range s {
		if isBinary(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	start, binEnd, count, gap := -1, 0, 0, 0
	emit := func() {
		if count >= minBinaryRun {
			fmt.Fprintf(&b, "[binary payload omitted: %d bytes]", binEnd-start)
			return
		}
		for _, r := range s[start:binEnd] {
			switch {
			case r == utf8.RuneError:
				b.WriteString(`\ufffd`)
			case isBinary(r):
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isBinary(r):
			if start < 0 {
				start, count = i, 0
			}
			count++
			binEnd, gap = i+size, 0
		case start >= 0:
			gap++
			if gap > binaryGap {
				emit()
				b.WriteString(s[binEnd : i+size])
				start = -1
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if start >= 0 {
		emit()
		b.WriteString(s[binEnd:])
	}
	return b.String()
}

func isBinary(r rune) bool {
	return r == utf8.RuneError || r != '\n' && r != '\t' && r != '\r' && unicode.IsControl(r)
}
