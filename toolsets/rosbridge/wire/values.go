package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
)

// Bytes is a ROS uint8[] or char[] field. rosbridge sends it as a base64
// string; it accepts a list of numbers too, and so does Bytes. It encodes
// as base64, like encoding/json does for []byte.
type Bytes []byte

// UnmarshalJSON reads base64 text, a list of numbers 0–255, or null.
func (b *Bytes) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*b = nil
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		v, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fmt.Errorf("uint8[] as base64: %w", err)
		}
		*b = v
		return nil
	}
	var nums []int
	if err := json.Unmarshal(data, &nums); err != nil {
		return fmt.Errorf("uint8[]: neither base64 text nor a list of numbers: %w", err)
	}
	v := make([]byte, len(nums))
	for i, n := range nums {
		if n < 0 || n > 255 {
			return fmt.Errorf("uint8[] element %d is %d, outside 0–255", i, n)
		}
		v[i] = byte(n)
	}
	*b = v
	return nil
}

// Floats decodes a float array in which rosbridge wrote ±inf and NaN as
// null (a LaserScan's "no return"): null becomes NaN, so a caller tests
// math.IsNaN, never compares with a range.
func Floats(raw json.RawMessage) ([]float64, error) {
	var ptrs []*float64
	if err := json.Unmarshal(raw, &ptrs); err != nil {
		return nil, fmt.Errorf("float array: %w", err)
	}
	out := make([]float64, len(ptrs))
	for i, p := range ptrs {
		if p == nil {
			out[i] = math.NaN()
		} else {
			out[i] = *p
		}
	}
	return out, nil
}

// Float is a float field rosbridge may send as null (±inf, NaN). Valid is
// false for null.
type Float struct {
	V     float64
	Valid bool
}

// UnmarshalJSON reads a number or null.
func (f *Float) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*f = Float{}
		return nil
	}
	if err := json.Unmarshal(data, &f.V); err != nil {
		return err
	}
	f.Valid = true
	return nil
}

// MarshalJSON writes the number, or null when not Valid or not finite:
// JSON has no inf or NaN, and rosbridge reads null as NaN.
func (f Float) MarshalJSON() ([]byte, error) {
	if !f.Valid || math.IsInf(f.V, 0) || math.IsNaN(f.V) {
		return []byte("null"), nil
	}
	return json.Marshal(f.V)
}

// nonFinite are the tokens Python's json module writes for inf and NaN
// (rosbridge issue 916: float arrays skip its null conversion).
var nonFinite = [][]byte{[]byte("-Infinity"), []byte("Infinity"), []byte("NaN")}

// repairNonFinite replaces bare NaN, Infinity and -Infinity tokens outside
// strings by null, and says how many it replaced.
func repairNonFinite(data []byte) ([]byte, int) {
	var out []byte
	n, last := 0, 0
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		ch := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
			continue
		}
		if ch == '"' {
			inString = true
			continue
		}
		for _, tok := range nonFinite {
			if bytes.HasPrefix(data[i:], tok) {
				out = append(out, data[last:i]...)
				out = append(out, "null"...)
				i += len(tok) - 1
				last = i + 1
				n++
				break
			}
		}
	}
	if n == 0 {
		return data, 0
	}
	return append(out, data[last:]...), n
}
