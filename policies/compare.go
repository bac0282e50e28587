package policies

import (
	"encoding/json"
	"math"
	"reflect"
)

// sameValue compares an expected argument value with an actual one: numbers
// within 1e-9, everything else by its JSON form (so 1 and 1.0 agree, and a
// YAML-decoded map equals a Go one).
func sameValue(got, want any) bool {
	if a, ok := toFloat(got); ok {
		b, ok := toFloat(want)
		return ok && math.Abs(a-b) <= 1e-9
	}
	return reflect.DeepEqual(normalise(got), normalise(want))
}

func normalise(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}
