package stages

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
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
		env := runlog.Envelope{Success: true, Value: value}
		for i := range int(images % 4) {
			env.Images = append(env.Images, world.Image{MIME: "image/png", Data: []byte{byte(i)}})
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
