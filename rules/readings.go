package rules

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/thea-harness/thea/internal/didyoumean"
)

// Safety readings as rules see them. A rule writes readings.<name>; the rule
// compiler reads it from the map of the reading's declared type
// (safety.readings.values), so `readings.light_curtain > 0.5` on a bool
// reading is a load error, and a name not declared is one too.

// ReadingsEnv is one fresh taking of the named safety readings, by type, with
// each reading's age in seconds (readings.age_s.<name>).
type ReadingsEnv struct {
	Bools   map[string]bool    `expr:"bools"`
	Numbers map[string]float64 `expr:"numbers"`
	Texts   map[string]string  `expr:"texts"`
	Values  map[string]any     `expr:"values"`
	AgeS    map[string]float64 `expr:"age_s"`
}

// readingMaps maps a declared reading type to the field it is read from.
var readingMaps = map[string]string{"bool": "bools", "number": "numbers", "string": "texts", "any": "values"}

// readingTypes maps a declared reading type to the Go type rules see.
var readingTypes = map[string]reflect.Type{
	"bool": reflect.TypeFor[bool](), "number": reflect.TypeFor[float64](),
	"string": reflect.TypeFor[string](), "any": reflect.TypeFor[any](),
}

// NewReadingsEnv reads a readings tool's value ({readings: {name: v}, age_s:
// {name: s}}) against the declared readings: every declared reading must be
// there, of its type, with its age; anything else makes the taking fail (and
// the rules reading it fail closed). Readings not declared are ignored.
func NewReadingsEnv(v map[string]any, declared map[string]string) (ReadingsEnv, error) {
	env := ReadingsEnv{Bools: map[string]bool{}, Numbers: map[string]float64{}, Texts: map[string]string{},
		Values: map[string]any{}, AgeS: map[string]float64{}}
	vals, ok := v["readings"].(map[string]any)
	if !ok {
		return env, fmt.Errorf("malformed readings: no readings object in %v", v)
	}
	ages, _ := v["age_s"].(map[string]any)
	for _, name := range sortedKeys(declared) {
		raw, ok := vals[name]
		if !ok || raw == nil {
			return env, fmt.Errorf("reading %q is missing (an unknown is never a value)", name)
		}
		age, ok := FiniteNumber(ages[name])
		if !ok || age < 0 {
			return env, fmt.Errorf("reading %q has no age (age_s.%s), so its freshness is unknown", name, name)
		}
		env.AgeS[name] = age
		switch declared[name] {
		case "bool":
			b, ok := raw.(bool)
			if !ok {
				return env, fmt.Errorf("reading %q is %v, not a bool", name, raw)
			}
			env.Bools[name] = b
		case "number":
			f, ok := FiniteNumber(raw)
			if !ok {
				return env, fmt.Errorf("reading %q is %v, not a number", name, raw)
			}
			env.Numbers[name] = f
		case "string":
			s, ok := raw.(string)
			if !ok {
				return env, fmt.Errorf("reading %q is %v, not text", name, raw)
			}
			env.Texts[name] = s
		default:
			env.Values[name] = raw
		}
	}
	return env, nil
}

// FiniteNumber reads a finite number of any Go numeric type an expr or a
// JSON decoder gives; NaN, an infinity or anything else is not one.
func FiniteNumber(x any) (float64, bool) {
	var f float64
	switch n := x.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	default:
		return 0, false
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// readingNames checks readings.<name> and readings.age_s.<name> against the
// declared readings; "" when n is no such read or the name is declared.
func (b Names) readingName(n *ast.MemberNode) string {
	prop, ok := n.Property.(*ast.StringNode)
	if !ok || b.Open {
		return ""
	}
	switch chain(n.Node) {
	case "readings":
		if _, ok := fieldByTag(reflect.TypeFor[ReadingsEnv](), prop.Value); ok {
			return ""
		}
	case "readings.age_s":
	default:
		return ""
	}
	if _, ok := b.Readings[prop.Value]; ok {
		return ""
	}
	if len(b.Readings) == 0 {
		return fmt.Sprintf("readings has no %q: the spec declares no safety readings (safety.readings.values)", prop.Value)
	}
	names := mapKeys(b.Readings)
	slices.Sort(names)
	return fmt.Sprintf("readings has no %q%s; declare it in safety.readings.values (declared: %s)", prop.Value, didyoumean.Suggest(prop.Value, names), strings.Join(names, ", "))
}

// readingType is the type readings.<name> reads, for the rule checker.
func (b Names) readingType(name string) (reflect.Type, bool) {
	if b.Open {
		return reflect.TypeFor[any](), true
	}
	t, ok := b.Readings[name]
	if !ok {
		return nil, false
	}
	return readingTypes[t], true
}

// patchReading rewrites readings.<name> into readings.<typed map>["<name>"].
func (b Names) patchReading(node *ast.Node, prop string) {
	if _, ok := fieldByTag(reflect.TypeFor[ReadingsEnv](), prop); ok {
		return
	}
	t, ok := b.Readings[prop]
	if !ok {
		if !b.Open {
			return
		}
		t = "any"
	}
	ast.Patch(node, &ast.MemberNode{
		Node:     &ast.MemberNode{Node: &ast.IdentifierNode{Value: "readings"}, Property: &ast.StringNode{Value: readingMaps[t]}},
		Property: &ast.StringNode{Value: prop},
	})
}

// ReservedReading reports whether name is one of ReadingsEnv's own fields,
// which no declared reading may be named (a rule could not read it), and
// lists those fields.
func ReservedReading(name string) (reserved bool, fields []string) {
	_, reserved = fieldByTag(reflect.TypeFor[ReadingsEnv](), name)
	return reserved, tagNames(reflect.TypeFor[ReadingsEnv]())
}
