package schema_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
)

// The JSON Schema a back-end author gets from `thea schema --def` accepts
// and refuses what the CUE contract does.
func TestContractJSONSchemas(t *testing.T) {
	for _, tc := range []struct {
		def, json string
		ok        bool
	}{
		{"observation", `{"clearance":{"curtain":0.25},"joints":{"elbow":-1.2},"end_effector":{"x":0.3,"y":0,"z":0.2},"gripper":{"opening_m":0.04,"closed":false},"held":"cube","images":[{"camera":"wrist","mime":"image/png","width":16,"height":12}]}`, true},
		{"observation", `{"joints":{"elbow":"bent"}}`, false},
		{"observation", `{"clearence":{}}`, false},
		{"observation", `{"state":{"anything":[1,{"x":2}]}}`, true},
		{"clearance", `{"ahead":1.95,"behind":0.05}`, true},
		{"clearance", `{"ahead":-1}`, false},
		{"verdict", `{"status":"failure","reason":"no load on the fingers","confidence":0.99}`, true},
		{"verdict", `{"status":"done"}`, false},
		{"envelope", `{"success":true,"run_id":"r1","position_m":0.9}`, true},
		{"envelope", `{"reason":"no success field"}`, false},
	} {
		b, err := schema.JSONSchemaDef(componentstest.Descriptors(t), tc.def)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(tc.def+".json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(tc.def + ".json")
		if err != nil {
			t.Fatalf("%s: %v", tc.def, err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); (err == nil) != tc.ok {
			t.Errorf("%s %s: JSON Schema says %v, want ok=%v", tc.def, tc.json, err, tc.ok)
		}
		var raw any
		_ = jsonUnmarshal(tc.json, &raw)
		if err := schema.CheckContract(tc.def, raw); (err == nil) != tc.ok {
			t.Errorf("%s %s: CUE says %v, want ok=%v", tc.def, tc.json, err, tc.ok)
		}
	}
}
