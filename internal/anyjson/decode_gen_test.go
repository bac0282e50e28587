package anyjson

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// genText writes a random JSON text the way a careless or hostile model
// might: odd whitespace, every escape, surrogates paired and not, invalid
// UTF-8, control characters escaped, numbers at the edges of the grammar
// and of float64, repeated keys, nesting.
func genText(r *rand.Rand) []byte {
	var b strings.Builder
	genSpace(r, &b)
	genValue(r, &b, 0)
	genSpace(r, &b)
	return []byte(b.String())
}

func genSpace(r *rand.Rand, b *strings.Builder) {
	if r.IntN(3) != 0 {
		return
	}
	for range r.IntN(3) + 1 {
		b.WriteByte(" \t\n\r"[r.IntN(4)])
	}
}

func genValue(r *rand.Rand, b *strings.Builder, depth int) {
	k := r.IntN(12)
	if depth >= 5 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case 1, 2, 3:
		genString(r, b)
	case 4, 5, 6, 7:
		genNumber(r, b)
	case 8, 9:
		b.WriteByte('{')
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			genSpace(r, b)
			if r.IntN(4) == 0 {
				b.WriteString(`"k"`) // repeated keys
			} else {
				genString(r, b)
			}
			genSpace(r, b)
			b.WriteByte(':')
			genSpace(r, b)
			genValue(r, b, depth+1)
			genSpace(r, b)
		}
		if n == 0 {
			genSpace(r, b)
		}
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			genSpace(r, b)
			genValue(r, b, depth+1)
			genSpace(r, b)
		}
		if n == 0 {
			genSpace(r, b)
		}
		b.WriteByte(']')
	}
}

// pieces of strings: plain text, multi-byte UTF-8 (valid, overlong,
// truncated, surrogates encoded in UTF-8, beyond U+10FFFF), and the
// characters encoding/json escapes when it writes.
var strPieces = []string{"a", "mug_1", " ", "<>&", "\x7f", "é", "€", "\U0001F916", "\u2028", "\ufffd",
	"\xff", "\xc0\xaf", "\xe2\x28\xa1", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\xa4", "\x80"}

var escPieces = []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0000`, `\u001F`, `\u00e9`, `\u00E9`,
	`\u2028`, `\ufffd`, `\uD83E\uDD16`, `\ud83e\udd16`, `\ud800`, `\udfff`, `\udc00\ud800`, `\ud800\ud800`,
	`\ud800\u0041`, `\uDBFF\uDFFF`, `\ud800\`, `\u0022`, `\u005c`}

func genString(r *rand.Rand, b *strings.Builder) {
	b.WriteByte('"')
	for range r.IntN(6) {
		switch r.IntN(3) {
		case 0:
			b.WriteString(strPieces[r.IntN(len(strPieces))])
		case 1:
			p := escPieces[r.IntN(len(escPieces))]
			if p == `\ud800\` { // a surrogate then some other escape
				p += "n"
			}
			b.WriteString(p)
		default:
			b.WriteString(`\u` + strconv.FormatUint(uint64(0x10000+r.IntN(0x10000)), 16)[1:])
		}
	}
	b.WriteByte('"')
}

func genNumber(r *rand.Rand, b *strings.Builder) {
	switch r.IntN(8) {
	case 0:
		b.WriteString([]string{"0", "-0", "0.0", "-0.0e0", "1e400", "-1e400", "1e-400", "4.9e-324", "2e-324",
			"1.7976931348623157e308", "1.7976931348623159e308", "1E+2", "1e-2", "1E007", "123456789012345678901234567890",
			"0.1", "9007199254740993", "2.2250738585072011e-308", "0e99999", "1e99999"}[r.IntN(20)])
		return
	case 1:
		b.WriteString(strconv.FormatFloat(r.NormFloat64()*1e10, 'g', -1, 64))
		return
	}
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	if r.IntN(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte(byte('1' + r.IntN(9)))
		digits(r, b, r.IntN(25))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		digits(r, b, 1+r.IntN(20))
	}
	if r.IntN(3) == 0 {
		b.WriteByte("eE"[r.IntN(2)])
		if s := r.IntN(3); s < 2 {
			b.WriteByte("+-"[s])
		}
		digits(r, b, 1+r.IntN(4))
	}
}

func digits(r *rand.Rand, b *strings.Builder, n int) {
	for range n {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
}

// mutateBytes are bytes a mutation inserts or swaps in: structure, the
// starts of values, whitespace JSON does and does not allow, control
// characters, bytes that are not UTF-8.
var mutateBytes = []byte("{}[]:,\"\\-+.0123456789eEtrufalsn \t\n\r\v\f\x00\x01\x1f\x7f\x80\xff/u'")

// mutate breaks a text the way one slip does: a byte deleted, inserted,
// replaced or doubled, the text cut short or a piece repeated.
func mutate(r *rand.Rand, text []byte) []byte {
	t := append([]byte(nil), text...)
	if len(t) == 0 {
		return append(t, mutateBytes[r.IntN(len(mutateBytes))])
	}
	i := r.IntN(len(t))
	switch r.IntN(6) {
	case 0:
		return append(t[:i], t[i+1:]...)
	case 1:
		return append(t[:i], append([]byte{mutateBytes[r.IntN(len(mutateBytes))]}, t[i:]...)...)
	case 2:
		t[i] = mutateBytes[r.IntN(len(mutateBytes))]
		return t
	case 3:
		return append(t[:i+1], t[i:]...)
	case 4:
		return t[:i]
	default:
		j := i + r.IntN(len(t)-i)
		return append(t[:j], append(append([]byte(nil), t[i:j]...), t[j:]...)...)
	}
}
