package schema_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
)

func compileJSONSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := schema.JSONSchema(componentstest.Descriptors(t))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("spec.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("spec.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func yamlDoc(t *testing.T, path string) (any, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if yaml.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return v, true
}

// TestJSONSchemaAcceptsExample validates the household YAML spec.
func TestJSONSchemaAcceptsExample(t *testing.T) {
	s := compileJSONSchema(t)
	v, ok := yamlDoc(t, "../examples/household/spec.yaml")
	if !ok {
		t.Fatal("example does not parse")
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("JSON Schema rejects the example: %v", err)
	}
}

// TestJSONSchemaRejectsStructuralErrors validates the YAML corpus specs whose
// problems are structural (not expr rules or references, which only Load sees).
func TestJSONSchemaRejectsStructuralErrors(t *testing.T) {
	s := compileJSONSchema(t)
	structural := []string{
		"unknown_field", "wrong_type", "bad_enum_provider", "bad_enum_channel",
		"missing_name", "missing_limits", "threshold_range", "several_problems",
	}
	for _, name := range structural {
		path := filepath.Join("testdata/invalid", name+".yaml")
		v, ok := yamlDoc(t, path)
		if !ok {
			t.Fatalf("%s does not parse", path)
		}
		if err := s.Validate(v); err == nil {
			t.Errorf("JSON Schema accepts %s", path)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%s: empty validation error", path)
		}
	}
}

// The JSON Schema accepts a YAML spec's top-level x- fields as Load does.
func TestJSONSchemaAcceptsExtensionFields(t *testing.T) {
	s := compileJSONSchema(t)
	v, ok := yamlDoc(t, "testdata/valid/extensions.yaml")
	if !ok {
		t.Fatal("testdata/valid/extensions.yaml does not parse")
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("JSON Schema rejects x- fields: %v", err)
	}
}
