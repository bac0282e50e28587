package anyjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// strSlow finishes a string that needs rebuilding: s[start:i] is plain,
// s[i] is a backslash or the first byte of invalid UTF-8. The rules are
// encoding/json's: a \u escape of a surrogate pairs with an immediately
// following \u escape of the other half, else it is U+FFFD (and the
// following escape stands alone); each byte of invalid UTF-8 is U+FFFD.
func (d *decoder) strSlow(start, i int) (string, error) {
	b := append(d.buf[:0], d.s[start:i]...)
	defer func() { d.buf = b[:0] }()
	for i < len(d.s) {
		c := d.s[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return string(b), nil
		case c == '\\':
			if i+1 >= len(d.s) {
				d.pos = len(d.s)
				return "", d.unexpected("an escape after '\\'")
			}
			switch e := d.s[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(d.s, i+2)
				if !ok {
					d.pos = i + 2
					for d.pos < len(d.s) && d.pos < i+6 && isHex(d.s[d.pos]) {
						d.pos++ // point at the byte that is not a hex digit
					}
					return "", d.unexpected("four hex digits after \\u")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+1 < len(d.s) && d.s[i] == '\\' && d.s[i+1] == 'u' {
						if h, ok := hex4(d.s, i+2); ok {
							r2 = h
						}
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				d.pos = i + 1
				return "", d.unexpected(`one of "\/bfnrtu after '\'`)
			}
			i += 2
		case c < ' ':
			d.pos = i
			return "", d.unexpected("an escape instead of a control character in a string")
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(d.s[i:])
			b = utf8.AppendRune(b, r) // invalid UTF-8: RuneError, one byte at a time
			i += size
		}
	}
	d.pos = len(d.s)
	return "", d.unexpected("the closing quote of a string")
}

// hex4 reads the four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
