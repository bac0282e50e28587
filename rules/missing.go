package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// A value a back-end did not send is unknown, and a rule that reads one
// does not get a default: expr's own reading of a missing map key is nil
// (`nil == true` is false, so `observation.state.light_curtain == true`
// would pass a missing curtain), and of an unsent typed field its zero
// value. So every read of observed data (observation in hooks; before and
// after in checks, effects and verifier arguments; args everywhere) is
// compiled into a checked read that fails the rule with a MissingError
// naming the value, and the caller fails closed. A read on the left of
// `??`, or through `?.`, is the rule saying what a missing value means: it
// reads nil there, and `??` gives its default.

// MissingError is a rule reading a value that was not sent: a field the
// observation left out, a key a map does not have, an index past a list's
// end, or a null.
type MissingError struct {
	// Path is the value as the rule spells it (observation.state.light_curtain).
	Path string
}

func (e *MissingError) Error() string {
	return e.Path + " is missing (not reported)"
}

// Missing returns the MissingError in err's chain, nil when there is none.
func Missing(err error) *MissingError {
	var m *MissingError
	if errors.As(err, &m) {
		return m
	}
	return nil
}

// The checked reads the patch writes: one per static type the read keeps
// (so `observation.held > 3` stays a load-time type error and typed
// operators stay typed), and one that reads nil for a missing value.
const (
	fnRead      = "__thea_read"
	fnReadStr   = "__thea_read_s"
	fnReadFloat = "__thea_read_f"
	fnReadInt   = "__thea_read_i"
	fnReadBool  = "__thea_read_b"
	fnMaybe     = "__thea_maybe"
)

var readFns = map[string]bool{fnRead: true, fnReadStr: true, fnReadFloat: true, fnReadInt: true, fnReadBool: true, fnMaybe: true}

// missingOptions are the compile options of the checked reads over roots.
func missingOptions(roots map[string]bool) []expr.Option {
	read, maybe := checkedRead(false), checkedRead(true)
	return []expr.Option{
		expr.Function(fnRead, read),
		expr.Function(fnReadStr, read, new(func(any, string, ...any) string)),
		expr.Function(fnReadFloat, read, new(func(any, string, ...any) float64)),
		expr.Function(fnReadInt, read, new(func(any, string, ...any) int)),
		expr.Function(fnReadBool, read, new(func(any, string, ...any) bool)),
		expr.Function(fnMaybe, maybe),
		expr.Patch(missingPatch{roots: roots}),
	}
}

// missingPatch turns every member chain rooted at an observed name
// (observation.state.light_curtain, after.state.drawers[args.name]) into
// one checked read: __thea_read(observation, "observation", "state",
// "light_curtain"). ast.Walk visits a chain's inner member first; each
// outer member extends the read its inner one became.
type missingPatch struct{ roots map[string]bool }

func (p missingPatch) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.MemberNode:
		if n.Method {
			return
		}
		var args []ast.Node
		switch base := n.Node.(type) {
		case *ast.IdentifierNode:
			if !p.roots[base.Value] {
				return
			}
			args = []ast.Node{&ast.IdentifierNode{Value: base.Value}, &ast.StringNode{Value: base.Value}}
		case *ast.CallNode:
			if !isRead(base) {
				return
			}
			if n.Optional {
				// `?.`: the rule reads nil for a missing value here.
				setCallee(base, fnMaybe)
				return
			}
			args = base.Arguments
		default:
			return
		}
		if n.Optional {
			return
		}
		args = append(args[:len(args):len(args)], n.Property)
		ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: readFor(n.Type())}, Arguments: args})
	case *ast.BinaryNode:
		if c, ok := n.Left.(*ast.CallNode); ok && n.Operator == "??" && isRead(c) {
			setCallee(c, fnMaybe)
		}
	case *ast.CallNode:
		// clearance.toward(x) and clearance.admissible(x) read a missing
		// argument as 0, the safe side, by their own contract.
		if m, ok := n.Callee.(*ast.MemberNode); ok {
			if id, ok := m.Node.(*ast.IdentifierNode); ok && id.Value == "clearance" {
				for _, a := range n.Arguments {
					if c, ok := a.(*ast.CallNode); ok && isRead(c) {
						setCallee(c, fnMaybe)
					}
				}
			}
		}
	}
}

func isRead(c *ast.CallNode) bool {
	id, ok := c.Callee.(*ast.IdentifierNode)
	return ok && readFns[id.Value]
}

func setCallee(c *ast.CallNode, name string) {
	c.Callee = &ast.IdentifierNode{Value: name}
}

// readFor is the checked read that keeps a member's static type.
func readFor(t reflect.Type) string {
	if t == nil {
		return fnRead
	}
	switch t.Kind() {
	case reflect.String:
		return fnReadStr
	case reflect.Float64:
		return fnReadFloat
	case reflect.Int:
		return fnReadInt
	case reflect.Bool:
		return fnReadBool
	}
	return fnRead
}

// checkedRead reads a[0] along the keys a[2:]; a missing value is a
// MissingError naming it after the root's name a[1] (nil when maybe).
func checkedRead(maybe bool) func(a ...any) (any, error) {
	return func(a ...any) (any, error) {
		keys := a[2:]
		v, at, err := resolve(a[0], keys)
		switch {
		case err != nil:
			return nil, err
		case at < 0:
			return v, nil
		case maybe:
			return nil, nil
		}
		root, _ := a[1].(string)
		return nil, &MissingError{Path: spell(root, keys[:at+1])}
	}
}

// Observed is a value that knows which of its fields a back-end sent (an
// observation): a rule reading a field it did not send reads a missing
// value, never the field's zero value.
type Observed interface {
	// ObservedField reads a field by its JSON name; false when it was not
	// sent, an error when there is no such field.
	ObservedField(name any) (any, bool, error)
	// ObservedIn reports whether a field of a nested object (gripper,
	// pose, end_effector) was sent.
	ObservedIn(object, field string) bool
}

// resolve follows keys from v; at is the index of the first key whose
// value is missing, -1 when none is.
func resolve(v any, keys []any) (out any, at int, err error) {
	// The observation a nested object (gripper, pose, end_effector) was
	// read from knows which of its fields were sent.
	var obs Observed
	object := ""
	for i, k := range keys {
		if obs != nil && object != "" {
			if name, _ := k.(string); !obs.ObservedIn(object, name) {
				return nil, i, nil
			}
		}
		obs, object = nil, ""
		if o, ok := v.(Observed); ok && !isNilPointer(v) {
			obs = o
			object, _ = k.(string)
		}
		var ok bool
		if v, ok, err = step(v, k); err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, i, nil
		}
	}
	return v, -1, nil
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// step reads one key of v: false when the value is missing.
func step(v, k any) (any, bool, error) {
	if isNilPointer(v) {
		return nil, false, nil
	}
	switch x := v.(type) {
	case nil:
		return nil, false, nil
	case Observed:
		return x.ObservedField(k)
	case map[string]any:
		s, ok := k.(string)
		if !ok {
			return nil, false, fmt.Errorf("cannot read %v (%T) of a map", k, k)
		}
		e, ok := x[s]
		return e, ok && e != nil, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		// A map of numbers by name (a clearance reading, joints): a name
		// it does not have is missing, not 0.
		if rv.Type().Key().Kind() == reflect.String && rv.Type().Elem().Kind() == reflect.Float64 {
			return floatKey(rv, k)
		}
	case reflect.Slice, reflect.Array:
		i, ok := k.(int)
		if !ok {
			break
		}
		if i < 0 {
			i += rv.Len()
		}
		if i < 0 || i >= rv.Len() {
			return nil, false, nil
		}
	}
	return fetch(v, k)
}

func floatKey(m reflect.Value, k any) (any, bool, error) {
	s, ok := k.(string)
	if !ok {
		return nil, false, fmt.Errorf("cannot read %v (%T) of a map", k, k)
	}
	f := m.MapIndex(reflect.ValueOf(s).Convert(m.Type().Key()))
	if !f.IsValid() {
		return nil, false, nil
	}
	return f.Interface(), true, nil
}

// fetch is expr's own member read, its panic an error.
func fetch(v, k any) (out any, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	out = runtime.Fetch(v, k)
	return out, out != nil, nil
}

// spell writes a read as a rule would: observation.state.light_curtain,
// after.state.drawers["top drawer"], after.detections[0].
func spell(root string, keys []any) string {
	var b strings.Builder
	b.WriteString(root)
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			if isIdent(k) {
				b.WriteString("." + k)
			} else {
				b.WriteString("[" + strconv.Quote(k) + "]")
			}
		default:
			fmt.Fprintf(&b, "[%v]", k)
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}
