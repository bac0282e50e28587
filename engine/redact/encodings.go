package redact

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// A secret also leaves a session encoded: a back-end that base64-encodes a
// credential into a header it reports, a URL with the key in its query, a
// hex dump. Each secret is therefore matched, beside its plain text, in the
// common encodings of its bytes, derived once when the Redactor is built
// (New), so matching costs a substring search per spelling and nothing is
// encoded per event:
//
//   - base64, standard and URL alphabets, padded and unpadded, and inside a
//     longer base64 text at each of the three byte offsets (mod 3) the
//     secret can start at;
//   - percent-encoding: as url.QueryEscape writes it ("+" for a space), as
//     url.PathEscape writes it ("%20"), and with every byte escaped, each in
//     upper- and in lower-case hex;
//   - hex, all upper case or all lower case.
//
// Patterns (run_log.redact) are matched on the text as it stands: a regular
// expression has no encoding to derive.

// MinEncodedLen is the shortest secret, in bytes, whose encodings are
// matched. A shorter secret gives encodings of a few characters (a 4-byte
// secret is 5 characters of base64 at some offset), which ordinary
// identifiers, hashes and image data contain by chance; its plain text is
// still matched.
const MinEncodedLen = 8

// encodings returns the encoded spellings of secret (see above), without
// secret itself and without duplicates; none when secret is shorter than
// MinEncodedLen.
func encodings(secret string) []string {
	if len(secret) < MinEncodedLen {
		return nil
	}
	var out []string
	add := func(s string) {
		if s != "" && s != secret && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	b := []byte(secret)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		add(enc.EncodeToString(b))
		raw := enc.WithPadding(base64.NoPadding)
		add(raw.EncodeToString(b))
		for offset := range 3 {
			add(base64Core(raw, b, offset))
		}
	}
	for _, p := range []string{url.QueryEscape(secret), url.PathEscape(secret), escapeAll(b)} {
		add(p)
		add(lowerEscapes(p))
	}
	h := hex.EncodeToString(b)
	add(h)
	add(strings.ToUpper(h))
	return out
}

// base64Core is the part of the base64 text of any bytes holding b at a
// byte offset ≡ offset (mod 3) that b alone determines: b is encoded after
// offset filler bytes, and the characters that also depend on a byte
// before b (the first 2 at offset 1, 3 at offset 2) or after it (the one
// after b's last whole 6 bits) are dropped. At most one character at
// either end is lost, under a byte of the secret.
func base64Core(enc *base64.Encoding, b []byte, offset int) string {
	in := make([]byte, offset+len(b))
	copy(in[offset:], b)
	s := enc.EncodeToString(in)
	n := len(in)
	end := 4*(n/3) + n%3 // whole groups, then a character per byte of a partial group
	start := [3]int{0, 2, 3}[offset]
	return s[start:end]
}

// escapeAll percent-encodes every byte of b, in upper-case hex.
func escapeAll(b []byte) string {
	const digits = "0123456789ABCDEF"
	var sb strings.Builder
	sb.Grow(3 * len(b))
	for _, c := range b {
		sb.WriteByte('%')
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&0xf])
	}
	return sb.String()
}

// lowerEscapes returns s with the hex digits of its %XX escapes in lower
// case (the rest, the secret's own letters, as they are).
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lowerHex(b[i+1]), lowerHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// spellings describes the encodings of a Redactor's secrets for a quick
// check that spares most text their search: every encoding is a run of at
// least min of the bytes in chars (no encoding holds a space, a quote or a
// newline), so text without such a run holds none.
type spellings struct {
	chars [256]bool
	min   int // 0: no encodings
}

func (sp *spellings) add(e string) {
	for i := 0; i < len(e); i++ {
		sp.chars[e[i]] = true
	}
	if sp.min == 0 || len(e) < sp.min {
		sp.min = len(e)
	}
}

// longRun reports whether s has a run of at least sp.min bytes of
// sp.chars.
func longRun[T ~string | ~[]byte](s T, sp *spellings) bool {
	if sp.min == 0 || len(s) < sp.min {
		return false
	}
	run := 0
	for i := 0; i < len(s); i++ {
		if !sp.chars[s[i]] {
			run = 0
			continue
		}
		if run++; run >= sp.min {
			return true
		}
	}
	return false
}
