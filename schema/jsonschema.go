package schema

import (
	"encoding/json"
	"fmt"
	"slices"
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
// actions, user channels, stages) are those registered in c.
func JSONSchema(c *Descriptors) ([]byte, error) {
	return JSONSchemaDef(c, "")
}

// ContractDefs are the back-end contract's definitions `thea schema --def`
// names: what observation, clearance, evidence and verify tools return.
var ContractDefs = []string{"observation", "clearance", "verdict", "envelope"}

// JSONSchemaDef is JSONSchema rooted at one definition of the schema
// (case-insensitive: "observation" is #Observation), holding only the
// definitions it refers to; "" is the whole spec.
func JSONSchemaDef(c *Descriptors, def string) ([]byte, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(schemaFor(c, formJSON), cue.Filename(schemaFile))
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
			dv := v.LookupPath(cue.MakePath(cue.Def(name)))
			setRequired(m, dv)
			setOpen(ctx, m, dv)
		}
	}
	flattenAllOf(defs)
	// A YAML spec's top-level x- fields hold anchors; Load ignores them.
	if spec, ok := defs["Spec"].(map[string]any); ok {
		spec["patternProperties"] = map[string]any{"^x-": map[string]any{"description": "an extension field for YAML anchors, ignored"}}
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
	if def != "" {
		name := ""
		for n := range defs {
			if strings.EqualFold(n, def) {
				name = n
			}
		}
		if name == "" {
			return nil, fmt.Errorf("no definition %q in the schema (the back-end contract: %s)", def, strings.Join(ContractDefs, ", "))
		}
		doc, _ := defs[name].(map[string]any)
		out = map[string]any{
			"$schema":     "https://json-schema.org/draft/2020-12/schema",
			"$id":         "https://thea-harness.dev/schema/" + strings.ToLower(name) + ".json",
			"title":       "Thea " + strings.ToLower(name),
			"description": doc["description"],
			"$ref":        "#/$defs/" + name,
			"$defs":       reachable(defs, name),
		}
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
	// A definition that embeds others (#Model_openai embeds #ModelCommon)
	// keeps its own fields in one of allOf's parts.
	for _, part := range asList(node["allOf"]) {
		if p, ok := part.(map[string]any); ok && p["$ref"] == nil {
			setRequired(p, v)
		}
	}
	props, ok := node["properties"].(map[string]any)
	if !ok {
		// A part that only lists required fields keeps the required ones.
		var req []any
		for _, r := range asList(node["required"]) {
			if label, ok := r.(string); ok && requiredField(v, label) {
				req = append(req, label)
			}
		}
		if _, listed := node["required"]; listed {
			node["required"] = req
		}
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

// requiredField reports whether v's field label is required (!).
func requiredField(v cue.Value, label string) bool {
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return false
	}
	for it.Next() {
		if it.Selector().Unquoted() == label {
			return it.Selector().ConstraintType() == cue.RequiredConstraint
		}
	}
	return false
}

// reachable keeps the definitions root refers to, directly or not.
func reachable(defs map[string]any, root string) map[string]any {
	out := map[string]any{}
	var visit func(name string)
	visit = func(name string) {
		if _, seen := out[name]; seen {
			return
		}
		d, ok := defs[name]
		if !ok {
			return
		}
		out[name] = d
		walkRefs(d, visit)
	}
	visit(root)
	return out
}

func walkRefs(x any, f func(string)) {
	switch x := x.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			f(strings.TrimPrefix(ref, "#/$defs/"))
		}
		for _, v := range x {
			walkRefs(v, f)
		}
	case []any:
		for _, v := range x {
			walkRefs(v, f)
		}
	}
}

// referencedDef names the definition v refers to (#Toolset gives
// "Toolset"), or "".
func referencedDef(v cue.Value) string {
	_, path := v.ReferencePath()
	sels := path.Selectors()
	if len(sels) != 1 || !sels[0].IsDefinition() {
		return ""
	}
	return strings.TrimPrefix(sels[0].String(), "#")
}

// flattenAllOf folds the definitions a closed definition embeds (openapi
// renders `{#A, #B, x: int}` as allOf of references beside x) into its own
// properties: JSON Schema's additionalProperties sees only a schema's own
// properties, so a closed allOf would refuse every embedded field.
func flattenAllOf(defs map[string]any) {
	var flat func(name string, seen map[string]bool) map[string]any
	flat = func(name string, seen map[string]bool) map[string]any {
		node, _ := defs[name].(map[string]any)
		all, ok := node["allOf"].([]any)
		if node == nil || !ok || seen[name] || node["additionalProperties"] != false {
			return node
		}
		seen[name] = true
		props, _ := node["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
		}
		required, _ := node["required"].([]any)
		var rest []any
		for _, part := range all {
			p, _ := part.(map[string]any)
			if ref, ok := p["$ref"].(string); ok && len(p) == 1 {
				p = flat(strings.TrimPrefix(ref, "#/$defs/"), seen)
			} else if _, onlyRequired := p["required"]; !onlyRequired || len(p) != 1 {
				rest = append(rest, part)
				continue
			}
			for k, v := range asMap(p["properties"]) {
				if _, own := props[k]; !own {
					props[k] = v
				}
			}
			for _, r := range asList(p["required"]) {
				if !slices.Contains(required, r) {
					required = append(required, r)
				}
			}
		}
		node["properties"] = props
		if len(required) > 0 {
			node["required"] = required
		}
		delete(node, "allOf")
		if len(rest) > 0 {
			node["allOf"] = rest
		}
		return node
	}
	for name := range defs {
		flat(name, map[string]bool{})
	}
}

func asMap(x any) map[string]any { m, _ := x.(map[string]any); return m }
func asList(x any) []any         { l, _ := x.([]any); return l }

// setOpen states what a struct allows beyond its fields, which openapi
// drops: `...` allows anything, a pattern constraint (`[string]: number`)
// allows fields of its type.
func setOpen(ctx *cue.Context, node map[string]any, v cue.Value) {
	if v.IncompleteKind() != cue.StructKind {
		return
	}
	if props, ok := node["properties"].(map[string]any); ok {
		it, err := v.Fields(cue.Optional(true))
		if err == nil {
			for it.Next() {
				if child, ok := props[it.Selector().Unquoted()].(map[string]any); ok {
					setOpen(ctx, child, it.Value())
				}
			}
		}
	}
	if !v.Allows(cue.Str("zz_any_field")) {
		return
	}
	elem := v.LookupPath(cue.MakePath(cue.AnyString))
	switch k := elem.IncompleteKind(); {
	case !elem.Exists() || k == cue.TopKind:
		delete(node, "additionalProperties")
	case k&cue.NumberKind == k:
		extra := map[string]any{"type": "number"}
		if k == cue.IntKind {
			extra["type"] = "integer"
		}
		// A bound of zero (distances) is the one bound these maps carry.
		if elem.Unify(ctx.CompileString("-1")).Validate() != nil && elem.Unify(ctx.CompileString("0")).Validate() == nil {
			extra["minimum"] = 0
		}
		node["additionalProperties"] = extra
	default:
		// A map of a definition (toolsets, tools): each entry is one.
		if def := referencedDef(elem); def != "" {
			node["additionalProperties"] = map[string]any{"$ref": "#/$defs/" + def}
			break
		}
		delete(node, "additionalProperties")
	}
	if node["type"] == nil {
		node["type"] = "object"
	}
}
