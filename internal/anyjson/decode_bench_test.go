package anyjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// benchTexts are a typical tool call's arguments and a bigger one (a path
// of waypoints with names, flags and a note with escapes, ~4 KB).
func benchTexts() map[string][]byte {
	var b strings.Builder
	b.WriteString(`{"frame":"map","speed_mps":0.35,"avoid_people":true,"note":"go around the \"blue\" rug\nthen stop — slowly","waypoints":[`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"wp_%d","x":%.3f,"y":%.3f,"yaw":%g,"tags":["hall","door_%d"],"stop":%t}`, i, float64(i)*0.25, -float64(i)*0.125, float64(i)/7, i%5, i%3 == 0)
	}
	b.WriteString(`],"timeout_s":120}`)
	return map[string][]byte{
		"small": []byte(`{"distance_m":0.5,"direction":"forward"}`),
		"big":   []byte(b.String()),
	}
}

// BenchmarkUnmarshal compares Unmarshal with the code it replaces:
// json.Unmarshal into an any (Float64) and the JSON Schema library's
// UnmarshalJSON, a json.Decoder with UseNumber (UseNumber). The names are
// benchstat keys: benchstat -col /impl compares the implementations.
func BenchmarkUnmarshal(b *testing.B) {
	texts := benchTexts()
	for _, size := range []string{"small", "big"} {
		text := texts[size]
		for _, c := range []struct {
			name   string
			decode func([]byte) (any, error)
		}{
			{"numbers=float64/impl=anyjson", func(d []byte) (any, error) { return Unmarshal(d, Float64) }},
			{"numbers=float64/impl=encoding-json", func(d []byte) (any, error) {
				var v any
				err := json.Unmarshal(d, &v)
				return v, err
			}},
			{"numbers=json.Number/impl=anyjson", func(d []byte) (any, error) { return Unmarshal(d, UseNumber) }},
			{"numbers=json.Number/impl=jsonschema", func(d []byte) (any, error) { return jsonschema.UnmarshalJSON(bytes.NewReader(d)) }},
		} {
			b.Run("text="+size+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.decode(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
