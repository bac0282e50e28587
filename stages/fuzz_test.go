package stages

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// FuzzDecodeObservation feeds arbitrary observation values (a back-end's
// JSON) with and without images to the observation decoder and its text
// rendering: never a panic; a decoded observation keeps every image's data;
// the text has one line per field, each starting with its name. Seeds:
// testdata/fuzz/FuzzDecodeObservation.
func FuzzDecodeObservation(f *testing.F) {
	f.Add([]byte(`{"summary":"kitchen","images":[{"camera":"head","mime":"image/png"}]}`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, images uint8) {
		var value map[string]any
		if json.Unmarshal(data, &value) != nil {
			return
		}
		env := engine.Envelope{Success: true, Value: value}
		for i := range int(images % 4) {
			env.Images = append(env.Images, schema.Image{MIME: "image/png", Data: []byte{byte(i)}})
		}
		text := observationText(value, false)
		fields := 0
		for _, line := range strings.Split(text, "\n") {
			if line != "" && line[0] != ' ' {
				fields++
			}
		}
		for k := range value {
			if k = fieldName(k); !strings.HasPrefix(text, k+": ") && !strings.Contains(text, "\n"+k+": ") {
				t.Fatalf("field %q has no line in\n%s", k, text)
			}
		}
		if len(value) > 0 && fields < len(value) {
			t.Fatalf("%d fields on %d lines:\n%s", len(value), fields, text)
		}
		obs, err := decodeObservation(env)
		if err != nil {
			return
		}
		if obs == nil {
			t.Fatal("no observation and no error")
		}
		if len(obs.Images) != len(env.Images) {
			t.Fatalf("%d images decoded from %d", len(obs.Images), len(env.Images))
		}
		for i := range obs.Images {
			if !reflect.DeepEqual(obs.Images[i].Data, env.Images[i].Data) {
				t.Fatalf("image %d lost its data", i)
			}
		}
	})
}

// FuzzParseArgs feeds arbitrary tool-call arguments (as a model returns
// them) to the model-response → call mapping: never a panic; the arguments
// accepted and their values are json.Unmarshal's into a map; accepted
// arguments are an object that survives a round trip; null, a list, a
// string or a number is refused. Seeds: testdata/fuzz/FuzzParseArgs.
func FuzzParseArgs(f *testing.F) {
	f.Add([]byte(`{"direction":"front","distance_m":0.5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := parseArgs(data)
		if len(data) > 0 {
			var want map[string]any
			werr := json.Unmarshal(data, &want)
			if ok := werr == nil && want != nil; ok != (err == nil) || ok && !reflect.DeepEqual(args, want) {
				t.Fatalf("%q: got %#v, %v; json.Unmarshal gives %#v, %v", data, args, err, want, werr)
			}
		}
		if err != nil {
			return
		}
		if args == nil {
			t.Fatal("nil arguments without an error")
		}
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatalf("accepted arguments do not encode: %v", err)
		}
		again, err := parseArgs(b)
		if err != nil || !reflect.DeepEqual(again, args) {
			t.Fatalf("round trip changed the arguments: %v %v", again, err)
		}
		if len(data) > 0 {
			var v any
			if json.Unmarshal(data, &v) == nil {
				if _, isObject := v.(map[string]any); !isObject {
					t.Fatalf("accepted %T as arguments", v)
				}
			}
		}
	})
}
