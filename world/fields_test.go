package world

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The one field list is the struct's: every json-tagged field of
// Observation is in Fields, in order, and each one sent empty decodes as
// sent (Known), reads through Field, and survives the run log's JSON.
func TestFieldsAreTheStructsFields(t *testing.T) {
	var tags []string
	typ := reflect.TypeFor[Observation]()
	for f := range typ.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Fatalf("Observation.%s has no JSON name", f.Name)
		}
		tags = append(tags, name)
	}
	if got := Fields(); !slices.Equal(got, tags) {
		t.Fatalf("Fields() = %v\nstruct json tags = %v", got, tags)
	}
	for f := range typ.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		t.Run(name, func(t *testing.T) {
			empty := map[reflect.Kind]string{reflect.Map: `{}`, reflect.Slice: `[]`, reflect.String: `""`, reflect.Pointer: `{}`}[f.Type.Kind()]
			if empty == "" {
				t.Fatalf("no empty JSON value for a %s", f.Type)
			}
			raw := `{"` + name + `":` + empty + `}`
			obs, err := Decode([]byte(raw))
			if err != nil {
				t.Fatalf("Decode(%s): %v", raw, err)
			}
			if !obs.Known(name) {
				t.Fatalf("Decode(%s): %s not known", raw, name)
			}
			if _, known, err := obs.Field(name); err != nil || !known {
				t.Fatalf("Field(%q) = known %v, %v", name, known, err)
			}
			b, err := json.Marshal(obs)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decode(b)
			if err != nil || !back.Known(name) {
				t.Fatalf("the run log's JSON %s of %s loses %s (%v)", b, raw, name, err)
			}
		})
	}
}

// Decode takes what a body reports, whatever it is, and refuses a value
// that is no observation, saying why.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		raw, err string
		known    []string
	}{
		{raw: `{"joints":{"shoulder":0.1},"end_effector":{"x":0.4,"y":0,"z":0.3},"gripper":{"opening_m":0.08,"closed":false}}`,
			known: []string{FieldJoints, FieldEndEffector, FieldGripper}},
		{raw: `{"pose":{"x":1,"y":2,"theta_deg":0},"clearance":{"front":1}}`, known: []string{FieldPose, FieldClearance}},
		{raw: `{"joint_states":{"elbow":{"position":0.5}}}`, known: []string{FieldJointStates}},
		{raw: `{}`, err: "none of the observation fields run_id, clearance, age_s"},
		{raw: `{"pose":null,"text":"hello"}`, err: "none of the observation fields"},
		{raw: `[1,2]`, err: "does not decode as an observation"},
		{raw: `{"summary":5}`, err: "does not decode as an observation"},
	} {
		for _, decode := range []func() (Observation, error){
			func() (Observation, error) { return Decode([]byte(tc.raw)) },
			func() (Observation, error) {
				var v any
				if err := json.Unmarshal([]byte(tc.raw), &v); err != nil {
					t.Fatal(err)
				}
				return DecodeValue(v)
			},
		} {
			obs, err := decode()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("%s: error %v, want one containing %q", tc.raw, err, tc.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", tc.raw, err)
				continue
			}
			for _, f := range Fields() {
				if want := slices.Contains(tc.known, f); obs.Known(f) != want {
					t.Errorf("%s: Known(%s) = %v, want %v", tc.raw, f, obs.Known(f), want)
				}
			}
		}
	}
}
