package rosbridge

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Structured tool arguments: an argument may be an array (of items) or an
// object (of properties), each typed like an argument, so a trajectory
// tool takes its points. The declaration is the model's input schema (the
// guard validates every call against it), the type the exprs are checked
// against at load, and bounded: maxArgDepth levels, every array its
// max_items.

// maxArgDepth bounds how many arrays and objects an argument nests (a
// trajectory's points[].positions[] is 3).
const maxArgDepth = 4

// checkArgDecls says what is wrong with declared arguments, each at its
// path ("args.points.items.positions").
func checkArgDecls(args map[string]ArgDecl, at string) []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(args)) {
		errs = append(errs, checkArgDecl(args[name], at+"."+name, 0)...)
	}
	return errs
}

func checkArgDecl(a ArgDecl, at string, depth int) []error {
	var errs []error
	fail := func(field, format string, args ...any) {
		errs = append(errs, FieldError{Path: at + field, Msg: fmt.Sprintf(format, args...)})
	}
	structured := a.Type == "array" || a.Type == "object"
	if structured && depth >= maxArgDepth {
		fail(".type", "arguments nest at most %d arrays and objects", maxArgDepth)
		return errs
	}
	if a.Items != nil && a.Type != "array" {
		fail(".items", "items types an array's elements; this argument is a %s", a.Type)
	}
	if a.Properties != nil && a.Type != "object" {
		fail(".properties", "properties type an object's fields; this argument is a %s", a.Type)
	}
	if (a.MinItems != nil || a.MaxItems != nil) && a.Type != "array" {
		fail("", "min_items and max_items bound an array; this argument is a %s", a.Type)
	}
	if (a.Minimum != nil || a.Maximum != nil) && a.Type != "number" && a.Type != "integer" {
		fail("", "minimum and maximum bound a number; this argument is a %s", a.Type)
	}
	switch a.Type {
	case "array":
		if a.Items == nil {
			fail(".items", "an array argument declares its items (items: {type: …})")
		} else {
			errs = append(errs, checkArgDecl(*a.Items, at+".items", depth+1)...)
		}
		if a.MaxItems == nil {
			fail(".max_items", "an array argument declares max_items, its most elements (at most 1000)")
		} else if a.MinItems != nil && *a.MinItems > *a.MaxItems {
			fail(".min_items", "min_items %d is more than max_items %d", *a.MinItems, *a.MaxItems)
		}
	case "object":
		if len(a.Properties) == 0 {
			fail(".properties", "an object argument declares its properties (properties: {name: {type: …}})")
		}
		for _, name := range slices.Sorted(maps.Keys(a.Properties)) {
			errs = append(errs, checkArgDecl(a.Properties[name], at+".properties."+name, depth+1)...)
		}
	}
	return errs
}

// argSchema is an argument's JSON Schema.
func argSchema(a ArgDecl) map[string]any {
	p := map[string]any{"type": a.Type}
	if a.Description != "" {
		p["description"] = a.Description
	}
	if a.Minimum != nil {
		p["minimum"] = *a.Minimum
	}
	if a.Maximum != nil {
		p["maximum"] = *a.Maximum
	}
	if len(a.Enum) > 0 {
		p["enum"] = a.Enum
	}
	switch a.Type {
	case "array":
		if a.Items != nil {
			p["items"] = argSchema(*a.Items)
		}
		if a.MinItems != nil {
			p["minItems"] = *a.MinItems
		}
		if a.MaxItems != nil {
			p["maxItems"] = *a.MaxItems
		}
	case "object":
		props, required := objectSchema(a.Properties)
		p["properties"], p["required"], p["additionalProperties"] = props, required, false
	}
	return p
}

// objectSchema is the properties and required list of an object's fields
// (the tool's arguments are one).
func objectSchema(fields map[string]ArgDecl) (map[string]any, []string) {
	props := map[string]any{}
	required := []string{}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		props[name] = argSchema(fields[name])
		if !fields[name].Optional {
			required = append(required, name)
		}
	}
	return props, required
}

// argsType is the Go type the exprs over args are type-checked against: a
// struct whose fields carry the argument names (expr reads the expr tag).
// Numbers are float64, as JSON brings them (integers too).
func argsType(fields map[string]ArgDecl) reflect.Type {
	var sf []reflect.StructField
	for i, name := range slices.Sorted(maps.Keys(fields)) {
		sf = append(sf, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: argType(fields[name]), Tag: reflect.StructTag(fmt.Sprintf("expr:%q", name))})
	}
	return reflect.StructOf(sf)
}

func argType(a ArgDecl) reflect.Type {
	switch a.Type {
	case "number", "integer":
		return reflect.TypeFor[float64]()
	case "string":
		return reflect.TypeFor[string]()
	case "boolean":
		return reflect.TypeFor[bool]()
	case "array":
		if a.Items != nil {
			return reflect.SliceOf(argType(*a.Items))
		}
	case "object":
		if len(a.Properties) > 0 {
			return argsType(a.Properties)
		}
	}
	return reflect.TypeFor[any]()
}

// argChainProblem follows chain (the fields an expr reads of args, "[]"
// for an index) through the declared arguments; it says why a step does
// not exist, or "".
func argChainProblem(chain []string, args map[string]ArgDecl) string {
	fields := args
	var cur *ArgDecl
	for i, f := range chain {
		read := "args." + strings.Join(chain[:i+1], ".")
		read = strings.ReplaceAll(read, ".[]", "[]")
		if f == "[]" {
			if cur == nil || cur.Type != "array" {
				return "" // an index into a string or the args: not a field question
			}
			cur, fields = cur.Items, nil
			if cur != nil && cur.Type == "object" {
				fields = cur.Properties
			}
			continue
		}
		if cur != nil && cur.Type == "array" {
			return fmt.Sprintf("%s: %s is an array; index it first", read, strings.TrimSuffix(read, "."+f))
		}
		if cur != nil && cur.Type != "object" {
			return "" // a scalar's method or a string index: expr's own check
		}
		d, ok := fields[f]
		if !ok {
			return fmt.Sprintf("%s is not declared (declared here: %s)", read, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
		}
		cur = &d
		fields = d.Properties
	}
	return ""
}

// readableTypes rewrites expr's spelling of a declared object's type (a
// struct with tagged fields) as "object", in a type-check error.
func readableTypes(msg string) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, "struct {")
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i])
		depth, j := 0, i
		for ; j < len(msg); j++ {
			if msg[j] == '{' {
				depth++
			} else if msg[j] == '}' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		b.WriteString("object")
		if j >= len(msg) {
			return b.String()
		}
		msg = msg[j+1:]
	}
}
