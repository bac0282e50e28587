package redact

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Numbers are matched by their decimal text, the way a sink or a model
// request would show them: back-ends' values arrive decoded as float64 (or
// int, json.Number…), and a PIN or a card number sent as a JSON number is as
// secret as the same digits in a string. A number whose text holds a secret
// or matches a pattern is replaced whole by Marker: a number cannot hold
// part of a string.

// holdsNumber reports whether the number x (a Go number or a json.Number)
// holds a secret: its text as encoding/json writes it, or, when JSON would
// write an exponent (below 1e-6, from 1e21), its plain decimal digits too.
// ok is false when x is not a number.
func (r *Redactor) holdsNumber(x any) (held, ok bool) {
	var buf [64]byte
	b := buf[:0]
	switch n := x.(type) {
	case float64:
		return r.holdsFloat(n, 64), true
	case float32:
		return r.holdsFloat(float64(n), 32), true
	case int:
		b = strconv.AppendInt(b, int64(n), 10)
	case int64:
		b = strconv.AppendInt(b, n, 10)
	case int32:
		b = strconv.AppendInt(b, int64(n), 10)
	case int16:
		b = strconv.AppendInt(b, int64(n), 10)
	case int8:
		b = strconv.AppendInt(b, int64(n), 10)
	case uint:
		b = strconv.AppendUint(b, uint64(n), 10)
	case uint64:
		b = strconv.AppendUint(b, n, 10)
	case uint32:
		b = strconv.AppendUint(b, uint64(n), 10)
	case uint16:
		b = strconv.AppendUint(b, uint64(n), 10)
	case uint8:
		b = strconv.AppendUint(b, uint64(n), 10)
	case uintptr:
		b = strconv.AppendUint(b, uint64(n), 10)
	case json.Number:
		return r.holdsNumberLiteral(string(n)), true
	default:
		return r.holdsNumberValue(reflect.ValueOf(x))
	}
	return r.holdsBytes(b), true
}

// holdsNumberValue is holdsNumber for named number types (type Metres
// float64) met through reflection.
func (r *Redactor) holdsNumberValue(v reflect.Value) (held, ok bool) {
	if !v.IsValid() {
		return false, false
	}
	var buf [64]byte
	switch v.Kind() {
	case reflect.Float64:
		return r.holdsFloat(v.Float(), 64), true
	case reflect.Float32:
		return r.holdsFloat(v.Float(), 32), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.holdsBytes(strconv.AppendInt(buf[:0], v.Int(), 10)), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return r.holdsBytes(strconv.AppendUint(buf[:0], v.Uint(), 10)), true
	}
	return false, false
}

// holdsFloat matches f as encoding/json writes it (shortest form, an
// exponent only below 1e-6 and from 1e21) and, when that form has an
// exponent, as plain decimal digits too: 1e21 is also
// "1000000000000000000000". NaN and infinities have no JSON text.
func (r *Redactor) holdsFloat(f float64, bits int) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	var buf [64]byte
	abs := math.Abs(f)
	exp := abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) ||
		bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21))
	if !exp {
		return r.holdsBytes(strconv.AppendFloat(buf[:0], f, 'f', -1, bits))
	}
	b := strconv.AppendFloat(buf[:0], f, 'e', -1, bits)
	// encoding/json writes e-07 as e-7.
	if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	if r.holdsBytes(b) {
		return true
	}
	return r.holdsBytes(strconv.AppendFloat(buf[:0], f, 'f', -1, bits))
}

// holdsNumberLiteral matches a json.Number: its literal text, and the text
// of the float64 it denotes (4.111111111111111e15 is 4111111111111111).
func (r *Redactor) holdsNumberLiteral(s string) bool {
	if r.holds(s) {
		return true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	return r.holdsFloat(f, 64)
}

// holdsBytes is holds for a number's text. Secrets are matched on the
// bytes; only patterns that could match a number's text (see
// numberPatterns) need it as a string, the one allocation of the check.
func (r *Redactor) holdsBytes(b []byte) bool {
	for _, sec := range r.candidateBytes(b) {
		if bytes.Contains(b, sec) {
			return true
		}
	}
	if len(r.numberPatterns) == 0 {
		return false
	}
	s := string(b)
	for _, re := range r.numberPatterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// numberChars are the characters of a number's text.
const numberChars = "0123456789+-.eE"

// numberPatterns keeps the patterns that can match inside a number's text:
// every match of a pattern begins with its literal prefix, so one whose
// prefix holds another character (pw-[0-9]+) never matches a number.
func numberPatterns(patterns []*regexp.Regexp) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, re := range patterns {
		prefix, _ := re.LiteralPrefix()
		if strings.Trim(prefix, numberChars) == "" {
			out = append(out, re)
		}
	}
	return out
}
