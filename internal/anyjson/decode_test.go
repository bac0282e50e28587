package anyjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// edgeCases are texts at the edges of what encoding/json accepts; each is
// checked against it in both number modes (and seeds the fuzz target).
var edgeCases = []string{
	// whitespace: JSON's four bytes only
	" \t\r\n{} \t\r\n", "\v{}", "{}\f", "\u00a0{}", "{}\u00a0", "\ufeff{}", "", " ", "\n",
	// literals
	"true", "false", "null", "tru", "nul", "True", "nulls", "[true,false,null]", "[truefalse]", "nan", "NaN", "Infinity",
	// numbers
	"0", "-0", "-", "01", "-01", "00", "1.", ".5", "1.e5", "1e", "1e+", "1E-", "+1", "1e5", "1E+05", "-0.0e-0",
	"0x10", "1_000", "1.5.5", "1e5e5", "1e400", "-1e400", "1e-400", "4.9e-324", "2.4703282292062327e-324",
	"1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
	"123456789012345678901234567890123456789", "9007199254740993", "0.1", "[1,-0,0.5e1]", "[01]", "{\"a\":01}",
	"[1 2]", "1 2", "12 ", "[-]", "[1e]", "[0.]",
	// strings: escapes, surrogates, UTF-8, control characters
	`""`, `"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\'"`, `"\a"`, `"\x41"`, `"\u0041"`, `"\u00e9\u00E9"`, `"\u004"`,
	`"\u004g"`, `"\uD83E\uDD16"`, `"\ud83e\udd16"`, `"\ud800"`, `"\udfff"`, `"\udc00\ud800"`, `"\ud800\ud800"`,
	`"\ud800\u0041"`, `"\ud800\n"`, `"\ud800\u"`, `"\ud800\u12"`, `"\ud800\uzzzz"`, `"\ud800x"`, `"\u0000"`,
	"\"\x00\"", "\"\x1f\"", "\"\t\"", "\"\n\"", "\"\x7f\"", "\"\xff\"", "\"a\xffb\"", "\"\xc0\xaf\"", "\"\xe2\x28\xa1\"",
	"\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xef\xbf\xbd\"", "\"\\n\xff\"", "\"\xff\\n\"", `"abc`, `"\`, `"\u`,
	"\"é€\U0001F916\u2028\"",
	// objects and arrays
	"{}", "[]", "[ ]", "{ }", `{"a":1,"a":2}`, `{"a":{"b":1},"a":[1]}`, `{"":0}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`,
	`{"a"}`, `{"a":}`, `{"a" 1}`, `{a:1}`, `{'a':1}`, `{"a":1 "b":2}`, `[1:2]`, `{"a",1}`, `[`, `{`, `]`, `}`, `[[]`,
	`[]]`, `{"a":1}}`, `{"a":[1,{"b":null}],"c":"d"}`, `{"distance_m":0.5,"direction":"forward"}`, `{"\u0061":1,"a":2}`,
	"{\"\xff\":1,\"\\ufffd\":2}", `{}{}`, `{} x`, `[] []`, `{}"`, "{}\x00",
}

func TestUnmarshalEdgeCases(t *testing.T) {
	for _, c := range edgeCases {
		checkSame(t, []byte(c))
	}
}

func TestUnmarshalValues(t *testing.T) {
	for _, c := range []struct {
		text    string
		numbers Numbers
		want    any
	}{
		{`{"distance_m":0.5,"direction":"forward"}`, Float64, map[string]any{"distance_m": 0.5, "direction": "forward"}},
		{`{"distance_m":0.5}`, UseNumber, map[string]any{"distance_m": json.Number("0.5")}},
		{`[1E+05, -0.0]`, UseNumber, []any{json.Number("1E+05"), json.Number("-0.0")}},
		{`1e400`, UseNumber, json.Number("1e400")},
		{`1e-400`, Float64, 0.0},
		{`{"a":1,"a":2}`, Float64, map[string]any{"a": 2.0}},
		{`{"\u0061":1,"a":[]}`, Float64, map[string]any{"a": []any{}}},
		{`"\ud83e\udd16\ud800\u0041\udc00"`, Float64, "\U0001F916\ufffdA\ufffd"},
		{"\"a\xffb\xed\xa0\x80\"", Float64, "a\ufffdb\ufffd\ufffd\ufffd"},
		{`"\"\\\/\b\f\n\r\t"`, Float64, "\"\\/\b\f\n\r\t"},
	} {
		got, err := Unmarshal([]byte(c.text), c.numbers)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, %v; want %#v", c.text, got, err, c.want)
		}
	}
}

// Errors say where and what was wanted there.
func TestUnmarshalErrors(t *testing.T) {
	for _, c := range []struct {
		text    string
		numbers Numbers
		offset  int
		msg     string
	}{
		{`{"n":`, Float64, 5, "unexpected end of the text, want a value at offset 5"},
		{`{"a" 1}`, Float64, 5, `unexpected '1', want ':' after an object key at offset 5`},
		{`{"a":1,}`, Float64, 7, `unexpected '}', want a string key at offset 7`},
		{`[1 2]`, Float64, 3, `unexpected '2', want ',' or ']' after an array element at offset 3`},
		{`{} x`, Float64, 3, `unexpected 'x', want nothing after the top-level value at offset 3`},
		{`tru`, Float64, 3, `unexpected end of the text, want true at offset 3`},
		{`[nul1]`, Float64, 4, `unexpected '1', want null at offset 4`},
		{`-x`, Float64, 1, `unexpected 'x', want a digit at offset 1`},
		{`1.e5`, Float64, 2, `unexpected 'e', want a digit after the decimal point at offset 2`},
		{"\"a\nb\"", Float64, 2, `unexpected '\n', want an escape instead of a control character in a string at offset 2`},
		{`"\x"`, Float64, 2, `unexpected 'x', want one of "\/bfnrtu after '\' at offset 2`},
		{`"\u12g4"`, Float64, 5, `unexpected 'g', want four hex digits after \u at offset 5`},
		{"\xff", Float64, 0, `unexpected byte 0xff, want a value at offset 0`},
		{`{"x":[1e400]}`, Float64, 6, `number 1e400 is out of float64 range at offset 6`},
	} {
		_, err := Unmarshal([]byte(c.text), c.numbers)
		var e *Error
		if !errors.As(err, &e) || e.Offset != c.offset || err.Error() != c.msg {
			t.Errorf("%q: got %v (%#v); want %q at %d", c.text, err, e, c.msg, c.offset)
		}
	}
	_, err := Unmarshal([]byte(`1e400`), Float64)
	if !errors.Is(err, strconv.ErrRange) {
		t.Errorf("range error %v does not wrap strconv.ErrRange", err)
	}
}

// Nesting is refused beyond encoding/json's limit, without exhausting the
// stack, and accepted up to it.
func TestUnmarshalDepth(t *testing.T) {
	for _, c := range []struct {
		depth int
		open  string
		close string
	}{
		{maxDepth, "[", "]"}, {maxDepth + 1, "[", "]"}, {maxDepth, `{"a":`, "}"}, {maxDepth + 1, `{"a":`, "}"},
		{1_000_000, "[", ""},
	} {
		text := []byte(strings.Repeat(c.open, c.depth) + "0" + strings.Repeat(c.close, c.depth))
		if c.close == "" {
			text = []byte(strings.Repeat(c.open, c.depth))
		}
		checkSame(t, text)
		_, err := Unmarshal(text, Float64)
		if c.depth > maxDepth && (err == nil || !strings.Contains(err.Error(), "nesting deeper than 10000")) {
			t.Errorf("depth %d %s: error %v", c.depth, c.open, err)
		}
	}
	mixed := strings.Repeat(`[{"a":`, maxDepth/2) + "1" + strings.Repeat("}]", maxDepth/2)
	checkSame(t, []byte(mixed))
	checkSame(t, []byte("["+mixed+"]"))
}
