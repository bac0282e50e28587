package anyjson

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// strs are strings encoding/json treats specially, mixed into the random
// values.
var strs = []string{"", "plain", `quo"te\back`, "<a&b>", "tab\tnew\nline\r", "\x00\x1f\x7f", "caf\u00e9 \u2028\u2029",
	"bad \xff utf8 \xe2\x28\xa1", "\ufffd", "emoji \U0001F916", "mug_1"}

var nums = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-7, 1.5e-7, 1e20, 1e21, 1.234e25, -3e-9, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1 + 0.2}

func randValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(10); {
	case k == 0:
		return nil
	case k == 1:
		return r.IntN(2) == 0
	case k == 2:
		return strs[r.IntN(len(strs))]
	case k == 3:
		return nums[r.IntN(len(nums))]
	case k == 4:
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
	case k == 5:
		return r.IntN(1000) - 500
	case k == 6 && depth < 4:
		m := map[string]any{}
		for range r.IntN(20) {
			m[strs[r.IntN(len(strs))]+string(rune('a'+r.IntN(26)))] = randValue(r, depth+1)
		}
		return m
	case k == 7 && depth < 4:
		var a []any
		for range r.IntN(5) {
			a = append(a, randValue(r, depth+1))
		}
		return a
	case k == 8:
		return []string{strs[r.IntN(len(strs))], "x"}
	default:
		return struct {
			A string `json:"a"`
		}{"<struct>"} // through encoding/json
	}
}

// Every generated value encodes to json.Marshal's bytes, and Size is their
// length.
func TestSameAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	for i := range 20000 {
		v := randValue(r, 0)
		want, werr := json.Marshal(v)
		got, gerr := Marshal(v)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("value %d %#v:\n got %s (%v)\nwant %s (%v)", i, v, got, gerr, want, werr)
		}
		if n := Size(v); n != len(want) {
			t.Fatalf("value %d %#v: Size %d, want %d", i, v, n, len(want))
		}
	}
	for _, v := range []any{math.NaN(), map[string]any{"x": math.Inf(1)}, []any{math.Inf(-1)}} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("%v encoded", v)
		}
		if Size(v) != 0 {
			t.Errorf("Size(%v) = %d, want 0", v, Size(v))
		}
	}
	for _, v := range []any{map[string]any(nil), []any(nil), []string(nil)} {
		if got, _ := Marshal(v); string(got) != "null" || Size(v) != 4 {
			t.Errorf("%#v: %s, size %d", v, got, Size(v))
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
		if StringSize(s) != len(want) {
			t.Fatalf("%q: size %d, want %d", s, StringSize(s), len(want))
		}
	})
}

func BenchmarkObservation(b *testing.B) {
	v := map[string]any{"detections": []any{map[string]any{"name": "mug", "class": "cup", "relation": "on", "target": "table", "room": "kitchen", "visible": true}}, "summary": "kitchen"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}
