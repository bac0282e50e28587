package anyjson

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Error is why a text did not decode: where, and what was found and wanted
// there.
type Error struct {
	// Offset is the byte offset of the first byte that could not be
	// decoded; the text's length when it ended too early.
	Offset int
	// Msg says what was found and what was wanted.
	Msg string
	// Err is strconv's error for a number out of float64's range, else nil.
	Err error
}

func (e *Error) Error() string { return e.Msg + " at offset " + strconv.Itoa(e.Offset) }

func (e *Error) Unwrap() error { return e.Err }

// unexpected is the error for the byte at pos (or the end of the text)
// where want was wanted.
func (d *decoder) unexpected(want string) error {
	if d.pos >= len(d.s) {
		return &Error{Offset: d.pos, Msg: "unexpected end of the text, want " + want}
	}
	return &Error{Offset: d.pos, Msg: "unexpected " + found(d.s[d.pos:]) + ", want " + want}
}

func (d *decoder) errorf(format string, args ...any) error {
	return &Error{Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}

// found names the character at the start of s as the model should read
// it: quoted, or as a byte when it is not UTF-8.
func found(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02x", s[0])
	}
	return strconv.QuoteRune(r)
}
