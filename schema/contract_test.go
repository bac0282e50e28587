package schema_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Samples a back-end might return: each must be accepted (or refused) by the
// CUE contract and by the Go types alike, and decode to the same JSON.
func TestContractCUEAndGoAgree(t *testing.T) {
	for _, tc := range []struct {
		def, json string
		ok        bool
	}{
		{"observation", `{"run_id":"r1","clearance":{"front":0.5,"back":1,"left":2,"right":3},"held":"cup",
			"detections":[{"name":"cup","class":"mug","camera":"head","relation":"on","target":"table","room":"kitchen","distance_m":1.2,"visible":true}],
			"pose":{"x":1,"y":2,"theta_deg":90,"room":"kitchen"},"images":[{"camera":"head","mime":"image/png","width":64,"height":48}],
			"state":{"battery":0.9},"summary":"a cup on the table"}`, true},
		{"observation", `{"clearance":{"curtain":0.25},"joints":{"shoulder":0.1,"elbow":-1.2},
			"end_effector":{"frame":"base_link","x":0.3,"y":0,"z":0.2,"roll_deg":5,"pitch_deg":90,"yaw_deg":-5},
			"gripper":{"opening_m":0.04,"closed":false,"force_n":2}}`, true},
		{"observation", `{}`, true},
		{"observation", `{"detections":[{"name":"door","visible":true,"position":{"x":1.5,"y":-2}}]}`, true},
		{"observation", `{"detections":[{"name":"door","visible":true,"position":{"x":1.5}}]}`, false},
		{"observation", `{"clearence":{"front":1}}`, false},
		{"observation", `{"gripper":{"opening_m":0.04}}`, false},
		{"observation", `{"pose":{"x":"one","y":0,"theta_deg":0}}`, false},
		{"clearance", `{"front":1,"back":0.2}`, true},
		{"clearance", `{"up":-1}`, false},
		{"verdict", `{"status":"success","reason":"the cup is held","confidence":0.9}`, true},
		{"verdict", `{"status":"maybe"}`, false},
		{"verdict", `{"status":"failure","why":"x"}`, false},
		{"envelope", `{"success":false,"reason":"no such object"}`, true},
		{"envelope", `{"success":true,"anything":[1,2]}`, true},
		{"envelope", `{"value":1}`, false},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
			t.Fatal(err)
		}
		cueErr := schema.CheckContract(tc.def, v)
		goErr := decodeStrict(tc.def, tc.json)
		if (cueErr == nil) != tc.ok || (goErr == nil) != tc.ok {
			t.Errorf("%s %s: CUE says %v, Go says %v, want ok=%v", tc.def, tc.json, cueErr, goErr, tc.ok)
		}
	}
}

// decodeStrict decodes through the Go type of def, refusing unknown fields,
// and checks that it round-trips to the same JSON (no field lost).
func decodeStrict(def, src string) error {
	var target any
	switch def {
	case "observation":
		target = new(world.Observation)
	case "clearance":
		target = new(world.Clearance)
	case "verdict":
		target = new(world.Verdict)
	case "envelope":
		target = new(struct {
			Success *bool  `json:"success"`
			Reason  string `json:"reason"`
		})
	}
	dec := json.NewDecoder(strings.NewReader(src))
	if def != "envelope" {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(target); err != nil {
		return err
	}
	switch x := target.(type) {
	case *world.Clearance:
		for k, d := range *x {
			if d < 0 {
				return errorf("clearance %s is negative", k)
			}
		}
	case *world.Verdict:
		if !x.Status.Valid() {
			return errorf("status %q", x.Status)
		}
	case *world.Observation:
		if g := x.Gripper; g != nil && !strings.Contains(src, `"closed"`) {
			return errorf("gripper.closed is required")
		}
		if x.Pose != nil && !strings.Contains(src, `"theta_deg"`) {
			return errorf("pose.theta_deg is required")
		}
	case *struct {
		Success *bool  `json:"success"`
		Reason  string `json:"reason"`
	}:
		if x.Success == nil {
			return errorf("success is required")
		}
		return nil
	}
	out, err := json.Marshal(target)
	if err != nil {
		return err
	}
	var a, b any
	_ = json.Unmarshal([]byte(src), &a)
	_ = json.Unmarshal(out, &b)
	if !reflect.DeepEqual(a, b) {
		var buf bytes.Buffer
		buf.Write(out)
		return errorf("round trip lost fields: %s", buf.String())
	}
	return nil
}

type strErr string

func (e strErr) Error() string { return string(e) }

func errorf(format string, a ...any) error {
	b, _ := json.Marshal(a)
	return strErr(format + " " + string(b))
}

// Every JSON field of the Go contract types is a field of its CUE
// definition and the other way round, nested types included (a detection's
// position, a pose, a gripper): what validate --live accepts is what run
// reads.
func TestContractFieldsMirrorGoTypes(t *testing.T) {
	for def, typ := range map[string]reflect.Type{
		"observation": reflect.TypeFor[world.Observation](),
		"verdict":     reflect.TypeFor[world.Verdict](),
	} {
		b, err := schema.JSONSchemaDef(nil, def)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Defs map[string]jsonSchemaNode `json:"$defs"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		name := strings.ToUpper(def[:1]) + def[1:]
		mirror(t, doc.Defs, name, doc.Defs[name], typ)
	}
}

// jsonSchemaNode is the part of a generated JSON Schema the mirror test reads.
type jsonSchemaNode struct {
	Ref        string                    `json:"$ref"`
	Items      *jsonSchemaNode           `json:"items"`
	Properties map[string]jsonSchemaNode `json:"properties"`
}

// resolve follows a node's $ref (and a list's items) to the definition it
// names.
func (n jsonSchemaNode) resolve(defs map[string]jsonSchemaNode) (jsonSchemaNode, string) {
	if n.Items != nil {
		n = *n.Items
	}
	if name, ok := strings.CutPrefix(n.Ref, "#/$defs/"); ok {
		return defs[name], name
	}
	return n, ""
}

// mirror compares one CUE definition's properties with a Go struct's JSON
// fields and descends into the fields whose Go type is a struct of its own.
func mirror(t *testing.T, defs map[string]jsonSchemaNode, where string, node jsonSchemaNode, typ reflect.Type) {
	t.Helper()
	goFields := map[string]reflect.Type{}
	for i := range typ.NumField() {
		tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if tag == "-" || !typ.Field(i).IsExported() {
			continue
		}
		goFields[tag] = typ.Field(i).Type
		if _, ok := node.Properties[tag]; !ok {
			t.Errorf("%s: Go field %q is missing from the CUE definition", where, tag)
		}
	}
	for p, sub := range node.Properties {
		ft, ok := goFields[p]
		if !ok {
			t.Errorf("%s: CUE field %q has no Go field", where, p)
			continue
		}
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct {
			continue
		}
		if def, name := sub.resolve(defs); name != "" {
			mirror(t, defs, where+"."+p+" (#"+name+")", def, ft)
		}
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
