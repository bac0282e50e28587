package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/encoding/openapi"
)

// JSONSchema returns a JSON Schema (draft 2020-12) of a spec, generated from
// the embedded CUE schema so it never drifts from it. Editors use it to
// complete and check YAML specs; Load remains the authority (expr rules and
// cross-references are checked only there).
//
// The names a spec may use for components (providers, toolset kinds, hook
// actions, user channels, stages) are those the catalog registers.
func JSONSchema(c *Catalog) ([]byte, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(schemaWith(c), cue.Filename(schemaFile))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("compiling the schema: %w", err)
	}
	f, err := openapi.Generate(v, &openapi.Config{})
	if err != nil {
		return nil, fmt.Errorf("generating OpenAPI from the schema: %w", err)
	}
	oapi, err := ctx.BuildFile(f).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding generated OpenAPI: %w", err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(oapi, &doc); err != nil {
		return nil, fmt.Errorf("reading generated OpenAPI: %w", err)
	}
	defs := doc.Components.Schemas
	for name, d := range defs {
		fixup(d)
		if m, ok := d.(map[string]any); ok {
			setRequired(m, v.LookupPath(cue.MakePath(cue.Def(name))))
		}
	}
	// Bounds that refer to a sibling field come out resolved against its
	// default; JSON Schema cannot relate fields, so Load alone checks them.
	for _, b := range [][3]string{
		{"Compaction", "reserve_tokens", "exclusiveMaximum"},
		{"Compaction", "keep_recent_tokens", "exclusiveMaximum"},
		{"FailureBudget", "total", "minimum"},
	} {
		if d, ok := defs[b[0]].(map[string]any); ok {
			if props, ok := d["properties"].(map[string]any); ok {
				if p, ok := props[b[1]].(map[string]any); ok {
					delete(p, b[2])
				}
			}
		}
	}
	out := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         "https://thea-harness.dev/schema/spec.json",
		"title":       "Thea spec",
		"description": "A robot spec for Thea. Generated from the CUE schema; `thea validate` also checks expr rules and references.",
		"$ref":        "#/$defs/Spec",
		"$defs":       defs,
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding JSON Schema: %w", err)
	}
	return append(b, '\n'), nil
}

// fixup turns OpenAPI 3.0 into JSON Schema in place: references point into
// $defs, exclusive bounds take the number form, and a field with a default is
// not required (an editor would otherwise demand it).
func fixup(x any) {
	switch x := x.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			x["$ref"] = strings.Replace(ref, "#/components/schemas/", "#/$defs/", 1)
		}
		for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			if ex, ok := x[b[0]].(bool); ok {
				delete(x, b[0])
				if ex {
					x[b[0]] = x[b[1]]
					delete(x, b[1])
				}
			}
		}
		delete(x, "nullable")
		// CUE structs are closed: say so, or editors accept misspelt fields.
		if _, ok := x["properties"]; ok {
			if _, set := x["additionalProperties"]; !set {
				x["additionalProperties"] = false
			}
		}
		for _, v := range x {
			fixup(v)
		}
	case []any:
		for _, v := range x {
			fixup(v)
		}
	}
}

// setRequired makes `required` list exactly the schema's required (!)
// fields: openapi also lists fields that have defaults, which an editor would
// then demand.
func setRequired(node map[string]any, v cue.Value) {
	props, ok := node["properties"].(map[string]any)
	if !ok {
		return
	}
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return
	}
	var req []any
	for it.Next() {
		label := it.Selector().Unquoted()
		if it.Selector().ConstraintType() == cue.RequiredConstraint {
			req = append(req, label)
		}
		if child, ok := props[label].(map[string]any); ok {
			setRequired(child, it.Value())
		}
	}
	delete(node, "required")
	if len(req) > 0 {
		node["required"] = req
	}
}
