package anyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// reference decodes data as the code Unmarshal replaces does:
// json.Unmarshal into an any for Float64, and the JSON Schema library's
// UnmarshalJSON (a json.Decoder with UseNumber that refuses anything after
// the value) for UseNumber.
func reference(data []byte, numbers Numbers) (any, error) {
	if numbers == UseNumber {
		return jsonschema.UnmarshalJSON(bytes.NewReader(data))
	}
	var v any
	err := json.Unmarshal(data, &v)
	return v, err
}

// checkSame fails t unless Unmarshal and reference agree on data in both
// number modes: both refuse it, or both accept it with reflect.DeepEqual
// values that are also identical to the bit (DeepEqual has -0 == 0) and of
// identical shape (an empty array is []any{}, not nil).
func checkSame(t *testing.T, data []byte) {
	t.Helper()
	for _, numbers := range []Numbers{Float64, UseNumber} {
		want, werr := reference(data, numbers)
		got, gerr := Unmarshal(data, numbers)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%.300q (numbers %d): error %v, encoding/json's %v", data, numbers, gerr, werr)
		}
		if gerr != nil {
			var e *Error
			if !errors.As(gerr, &e) || e.Offset < 0 || e.Offset > len(data) {
				t.Fatalf("%.300q: error %#v is not an *Error with an offset in the text", data, gerr)
			}
			continue
		}
		if !reflect.DeepEqual(got, want) || !identical(got, want) {
			t.Fatalf("%.300q (numbers %d):\n got %.300#v\nwant %.300#v", data, numbers, got, want)
		}
	}
	if _, err := Unmarshal(data, UseNumber); (err == nil) != json.Valid(data) {
		t.Fatalf("%.300q: error %v but json.Valid %v", data, err, json.Valid(data))
	}
}

// identical is reflect.DeepEqual that also tells -0 from 0 and a nil
// slice or map from an empty one.
func identical(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !identical(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !identical(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	}
	return a == b
}

// Generated texts and broken copies of them decode as encoding/json
// decodes them, in both number modes.
func TestUnmarshalSameAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	valid, invalid := 0, 0
	for range 40000 {
		text := genText(r)
		checkSame(t, text)
		for range 3 {
			broken := mutate(r, text)
			checkSame(t, broken)
			if json.Valid(broken) {
				valid++
			} else {
				invalid++
			}
		}
		if json.Valid(text) {
			valid++
		} else {
			invalid++
		}
	}
	// The generator is meant to give both kinds in number; a change that
	// made it give only one would make the test prove little.
	t.Logf("valid %d invalid %d", valid, invalid)
	if valid < 40000 || invalid < 40000 {
		t.Fatalf("%d valid and %d invalid texts; want at least 40000 of each", valid, invalid)
	}
}

// FuzzUnmarshal: any bytes decode as encoding/json decodes them, in both
// number modes. Seeds: the edge cases of the unit tests and generated
// texts; testdata/fuzz/FuzzUnmarshal.
func FuzzUnmarshal(f *testing.F) {
	for _, c := range edgeCases {
		f.Add([]byte(c))
	}
	r := rand.New(rand.NewPCG(20, 3))
	for range 50 {
		f.Add(genText(r))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSame(t, data)
	})
}
