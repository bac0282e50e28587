package anyjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Numbers says how Unmarshal represents a JSON number.
type Numbers uint8

const (
	// Float64 numbers are what json.Unmarshal puts in an any; a number out
	// of float64's range is an error, as it is there.
	Float64 Numbers = iota
	// UseNumber numbers are json.Number holding the literal, as a
	// json.Decoder gives after UseNumber (what JSON Schema validators
	// expect).
	UseNumber
)

// maxDepth is encoding/json's nesting limit: a hostile text of nested
// brackets is refused instead of growing the stack without bound.
const maxDepth = 10000

// Unmarshal decodes one JSON text into the generic form encoding/json
// gives an any: map[string]any, []any, string, bool, nil and numbers as
// numbers says. It accepts exactly the texts encoding/json accepts in
// that mode (one value, JSON's whitespace around it, nothing else after
// it) and gives equal values, without reflection; an error is an *Error
// with the byte offset.
//
// The strings of the result share one copy of data: a string kept from the
// result keeps the whole text alive, which for tool arguments costs less
// than an allocation per key and value.
func Unmarshal(data []byte, numbers Numbers) (any, error) {
	d := decoder{s: string(data), useNumber: numbers == UseNumber}
	d.space()
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	if d.space(); d.pos < len(d.s) {
		return nil, d.unexpected("nothing after the top-level value")
	}
	return v, nil
}

// decoder is a recursive descent over s; pos is the next byte to read.
type decoder struct {
	s         string
	pos       int
	depth     int
	useNumber bool
	// elems holds the elements of the arrays being decoded, innermost
	// last, so that each array is allocated once at its final length.
	elems []any
	// buf builds strings that have escapes or invalid UTF-8.
	buf []byte
}

// space skips JSON's four whitespace bytes.
func (d *decoder) space() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value decodes the value starting at pos (whitespace already skipped).
func (d *decoder) value() (any, error) {
	if d.pos >= len(d.s) {
		return nil, d.unexpected("a value")
	}
	switch c := d.s[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		return s, nil
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return d.number()
		}
		return nil, d.unexpected("a value")
	}
}

func (d *decoder) literal(word string) error {
	if len(d.s)-d.pos >= len(word) && d.s[d.pos:d.pos+len(word)] == word {
		d.pos += len(word)
		return nil
	}
	for i := 1; i < len(word); i++ { // point at the first wrong byte
		if d.pos+i >= len(d.s) || d.s[d.pos+i] != word[i] {
			d.pos += i
			break
		}
	}
	return d.unexpected(word)
}

func (d *decoder) enter() error {
	if d.depth++; d.depth > maxDepth {
		return d.errorf("nesting deeper than %d objects and arrays", maxDepth)
	}
	return nil
}

func (d *decoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	m := map[string]any{}
	d.pos++
	d.space()
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		d.depth--
		return m, nil
	}
	for {
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			return nil, d.unexpected("a string key")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			return nil, d.unexpected("':' after an object key")
		}
		d.pos++
		d.space()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		m[k] = v // a repeated key: the last wins, as in encoding/json
		d.space()
		if d.pos < len(d.s) {
			switch d.s[d.pos] {
			case ',':
				d.pos++
				d.space()
				continue
			case '}':
				d.pos++
				d.depth--
				return m, nil
			}
		}
		return nil, d.unexpected("',' or '}' after an object member")
	}
}

func (d *decoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++
	d.space()
	base := len(d.elems)
	if d.pos < len(d.s) && d.s[d.pos] == ']' {
		d.pos++
		d.depth--
		return []any{}, nil // empty, not nil, as encoding/json
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.elems = append(d.elems, v)
		d.space()
		if d.pos < len(d.s) {
			switch d.s[d.pos] {
			case ',':
				d.pos++
				d.space()
				continue
			case ']':
				d.pos++
				d.depth--
				a := make([]any, len(d.elems)-base)
				copy(a, d.elems[base:])
				clear(d.elems[base:]) // do not keep the values alive
				d.elems = d.elems[:base]
				return a, nil
			}
		}
		return nil, d.unexpected("',' or ']' after an array element")
	}
}

// number decodes the number at pos by JSON's grammar:
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func (d *decoder) number() (any, error) {
	start := d.pos
	if d.s[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.s) && d.s[d.pos] == '0':
		d.pos++
	case d.pos < len(d.s) && '1' <= d.s[d.pos] && d.s[d.pos] <= '9':
		d.digits()
	default:
		return nil, d.unexpected("a digit")
	}
	if d.pos < len(d.s) && d.s[d.pos] == '.' {
		d.pos++
		if !d.digits() {
			return nil, d.unexpected("a digit after the decimal point")
		}
	}
	if d.pos < len(d.s) && (d.s[d.pos] == 'e' || d.s[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.s) && (d.s[d.pos] == '+' || d.s[d.pos] == '-') {
			d.pos++
		}
		if !d.digits() {
			return nil, d.unexpected("a digit in the exponent")
		}
	}
	lit := d.s[start:d.pos]
	if d.useNumber {
		return json.Number(lit), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil { // the grammar is checked: only a range error is left
		return nil, &Error{Offset: start, Msg: "number " + lit + " is out of float64 range", Err: err}
	}
	return f, nil
}

// digits skips [0-9]* and reports whether there was one.
func (d *decoder) digits() bool {
	start := d.pos
	for d.pos < len(d.s) && '0' <= d.s[d.pos] && d.s[d.pos] <= '9' {
		d.pos++
	}
	return d.pos > start
}

// str decodes the string whose opening quote is at pos. A string without
// escapes and with valid UTF-8 is a slice of s; any other is rebuilt.
func (d *decoder) str() (string, error) {
	start := d.pos + 1
	for i := start; i < len(d.s); {
		switch c := d.s[i]; {
		case c == '"':
			d.pos = i + 1
			return d.s[start:i], nil
		case c == '\\':
			return d.strSlow(start, i)
		case c < ' ':
			d.pos = i
			return "", d.unexpected("an escape instead of a control character in a string")
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(d.s[i:])
			if r == utf8.RuneError && size == 1 {
				return d.strSlow(start, i)
			}
			i += size
		}
	}
	d.pos = len(d.s)
	return "", d.unexpected("the closing quote of a string")
}
