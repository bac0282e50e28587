package rosbridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// A state value is data: it is carried in the observation as JSON and
// read by rules, the Brief and the model. A value JSON cannot carry (a
// function, a map with other than string keys, NaN) is refused at its key
// at load when the expr's type says so, and fails the observation with
// the reason otherwise. expr's fromPairs builds a map[any]any; with string
// keys it is a map like any other.

// unencodableType says why values of type t can never be encoded, or "".
func unencodableType(t reflect.Type) string {
	if t == nil {
		return ""
	}
	switch t.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return fmt.Sprintf("a %s", t)
	case reflect.Map:
		if k := t.Key().Kind(); k != reflect.String && k != reflect.Interface {
			return fmt.Sprintf("a map with %s keys (a state map's keys are strings)", t.Key())
		}
		return unencodableType(t.Elem())
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return unencodableType(t.Elem())
	}
	return ""
}

// checkStateValue refuses a state expr whose value cannot be encoded, as
// far as its type and its fromPairs pairs tell.
func checkStateValue(prog *vm.Program) string {
	node := prog.Node()
	if why := unencodableType(node.Type()); why != "" {
		return "its value would be " + why
	}
	var why string
	ast.Walk(&node, visitor(func(n ast.Node) {
		b, ok := n.(*ast.BuiltinNode)
		if !ok || b.Name != "fromPairs" || len(b.Arguments) != 1 || why != "" {
			return
		}
		pairs, ok := b.Arguments[0].(*ast.ArrayNode)
		if !ok {
			return
		}
		for _, p := range pairs.Nodes {
			pair, ok := p.(*ast.ArrayNode)
			if !ok || len(pair.Nodes) == 0 {
				continue
			}
			if t := pair.Nodes[0].Type(); t != nil && t.Kind() != reflect.String && t.Kind() != reflect.Interface {
				why = fmt.Sprintf("fromPairs builds a map with a %s key (a state map's keys are strings)", t)
				return
			}
		}
	}))
	return why
}

// encodable returns v as JSON can carry it (a map[any]any with string keys
// as a map[string]any), or why it cannot be.
func encodable(v any, at string) (any, error) {
	where := func() string {
		if at == "" {
			return "the value"
		}
		return "the value at " + at
	}
	switch x := v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return v, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s is %v, which JSON cannot carry", where(), x)
		}
		return v, nil
	case float32:
		return encodable(float64(x), at)
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e, err := encodable(x[k], join(at, k))
			if err != nil {
				return nil, err
			}
			out[k] = e
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		var keys []string
		for k := range x {
			s, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s has a map key %v (%T), not a string: build a state map with string keys", where(), k, k)
			}
			keys = append(keys, s)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e, err := encodable(x[k], join(at, k))
			if err != nil {
				return nil, err
			}
			out[k] = e
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = encodable(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			var err error
			if out[i], err = encodable(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case reflect.Float32, reflect.Float64:
		return encodable(rv.Float(), at)
	}
	if why := unencodableType(rv.Type()); why != "" {
		return nil, fmt.Errorf("%s is %s, which a state value cannot be", where(), why)
	}
	if _, err := json.Marshal(v); err != nil {
		return nil, fmt.Errorf("%s (a %s) cannot be encoded: %w", where(), rv.Type(), err)
	}
	return v, nil
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// stateValue runs state key k's expr on msg and returns its value as JSON
// carries it.
func (p *plan) stateValue(k string, msg any) (any, error) {
	val, err := run(p.state[k], "msg", msg)
	if err != nil {
		return nil, err
	}
	return encodable(val, "")
}
