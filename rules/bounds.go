package rules

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/expr-lang/expr/vm/runtime"
)

// Limits of one rule evaluation. expr's own budget counts the elements of
// ranges, arrays, maps and loop scopes, but not the bytes of strings: `a +
// b`, repeat, replace, join, toJSON and string() can grow a value
// exponentially inside a reduce (`reduce(1..999, #acc + #acc, 'a')`) and end
// the process with Go's unrecoverable out-of-memory. Every rule is compiled
// so that such growth is checked before it allocates and charged to the same
// budget, and the value a rule returns is bounded too, so every rule either
// returns or fails closed with an error.
const (
	// MaxNodes bounds the size of one rule's syntax tree.
	MaxNodes = 2000
	// MemoryBudget is the vm.VM memory budget of one evaluation, in
	// expr's units (one per range, array, map or scope element). String
	// bytes are charged one unit per ruleBytesPerUnit bytes, so one
	// evaluation produces at most 16 MiB of strings.
	MemoryBudget = 1_000_000
	// MaxValueBytes bounds one string a rule builds and the (JSON) size
	// of the value it returns.
	MaxValueBytes    = 64 << 10
	ruleBytesPerUnit = 16
)

// ExprOptions are the bounds every expr Thea evaluates is compiled with: a
// hook's rule, a tool's check, a toolset's goal, message or state
// expression (rosbridge). Pair them with Run, which applies the memory
// budget and bounds the value returned, so one bound holds at every site.
func ExprOptions() []expr.Option { return ruleOptions() }

// NewVM returns a VM for evaluating compiled rules, with the rule memory
// budget. One VM serves one goroutine.
func NewVM() *vm.VM { return &vm.VM{MemoryBudget: MemoryBudget} }

// Run evaluates a compiled rule on machine (nil: a fresh one) and checks
// the size of what it returns.
func Run(machine *vm.VM, p *vm.Program, env any) (any, error) {
	if machine == nil {
		machine = NewVM()
	}
	if machine.MemoryBudget == 0 || machine.MemoryBudget > MemoryBudget {
		machine.MemoryBudget = MemoryBudget
	}
	out, err := machine.Run(p, env)
	if err != nil {
		return nil, err
	}
	if n := valueSize(out, MaxValueBytes); n > MaxValueBytes {
		return nil, fmt.Errorf("rule value is larger than %d bytes", MaxValueBytes)
	}
	return out, nil
}

// The names the guard adds. A rule could spell them too; they are bounded
// like everything else.
const (
	fnAdd          = "__thea_add"
	fnAddString    = "__thea_add_s"
	fnCharge       = "__thea_charge"
	fnChargeString = "__thea_charge_s"
	fnCost         = "__thea_cost"
	varGrown       = "__thea_v"
)

// growing names the functions whose result may be much larger than their
// arguments; each call is charged to the budget by the size of its result.
var growing = map[string]bool{
	"repeat": true, "replace": true, "join": true, "toJSON": true, "toBase64": true,
	"string": true, "split": true, "splitAfter": true, "upper": true, "lower": true,
	fnAdd: true, fnAddString: true,
}

// ruleOptions are the compile options every rule gets on top of its env and
// expected type: the node limit, bounded versions of the string builtins and
// the patch that routes `+` through them and charges their results.
func ruleOptions() []expr.Option {
	return []expr.Option{
		expr.MaxNodes(MaxNodes),
		expr.Function(fnAdd, boundedAdd),
		expr.Function(fnAddString, boundedAdd, new(func(string, string) string)),
		expr.Function(fnCost, func(a ...any) (any, error) {
			return valueSize(a[0], 1<<62) / ruleBytesPerUnit, nil
		}, new(func(any) int)),
		expr.Function(fnCharge, func(a ...any) (any, error) { return a[0], nil }),
		expr.Function(fnChargeString, func(a ...any) (any, error) { return a[0], nil }, new(func(string, []any) string)),
		expr.Function("repeat", boundedRepeat, new(func(string, int) string), new(func(string, float64) string)),
		expr.Function("replace", boundedReplace,
			new(func(string, string, string) string), new(func(string, string, string, int) string)),
		expr.Function("join", boundedJoin, new(func([]any, string) string), new(func([]any) string),
			new(func([]string, string) string), new(func([]string) string)),
		expr.Function("toJSON", boundedJSON, new(func(any) string)),
		expr.Function("toBase64", func(a ...any) (any, error) {
			s := a[0].(string)
			if err := checkLen("toBase64", base64.StdEncoding.EncodedLen(len(s))); err != nil {
				return nil, err
			}
			return base64.StdEncoding.EncodeToString([]byte(s)), nil
		}, new(func(string) string)),
		expr.Function("string", func(a ...any) (any, error) {
			if n := valueSize(a[0], MaxValueBytes); n > MaxValueBytes {
				return nil, checkLen("string", n)
			}
			return fmt.Sprint(a[0]), nil
		}, new(func(any) string)),
		expr.Patch(growthPatch{}),
	}
}

// growthPatch rewrites `a + b` (when both sides may be strings) into the
// bounded add, and wraps every growing call as
//
//	let v = call(...); __thea_charge(v, 1..__thea_cost(v))
//
// so the range charges the result's size to expr's own budget.
type growthPatch struct{}

func (growthPatch) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		if n.Operator != "+" || !mayGrow(n.Left) || !mayGrow(n.Right) {
			return
		}
		add := fnAdd
		if isString(n.Left) && isString(n.Right) {
			add = fnAddString // keeps the static type: string
		}
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: add}, Arguments: []ast.Node{n.Left, n.Right}}
		ast.Patch(node, charged(call, add == fnAddString))
	case *ast.BuiltinNode:
		if growing[n.Name] {
			ast.Patch(node, charged(n, isString(n)))
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && growing[id.Value] && id.Value != fnAdd && id.Value != fnAddString {
			ast.Patch(node, charged(n, isString(n)))
		}
	}
}

// charged wraps call so that its result's size is charged to the budget;
// a call known to give a string keeps that type for the checker.
func charged(call ast.Node, str bool) ast.Node {
	charge := fnCharge
	if str {
		charge = fnChargeString
	}
	cost := &ast.BinaryNode{Operator: "..", Left: &ast.IntegerNode{Value: 1},
		Right: &ast.CallNode{Callee: &ast.IdentifierNode{Value: fnCost}, Arguments: []ast.Node{&ast.IdentifierNode{Value: varGrown}}}}
	return &ast.VariableDeclaratorNode{Name: varGrown, Value: call,
		Expr: &ast.CallNode{Callee: &ast.IdentifierNode{Value: charge},
			Arguments: []ast.Node{&ast.IdentifierNode{Value: varGrown}, cost}}}
}

func isString(n ast.Node) bool {
	t := n.Type()
	return t != nil && t.Kind() == reflect.String
}

// mayGrow reports whether n may be a string at run time: its type is string
// or not known at compile time (an argument, an accumulator). A `+` with a
// side of another known type is left to expr, whose checker then reports a
// mismatch such as string + int at load time, as before.
func mayGrow(n ast.Node) bool {
	t := n.Type()
	return t == nil || t.Kind() == reflect.String || t.Kind() == reflect.Interface
}

func boundedAdd(a ...any) (any, error) {
	if x, ok := a[0].(string); ok {
		if y, ok := a[1].(string); ok {
			if err := checkLen("+", len(x)+len(y)); err != nil {
				return nil, err
			}
			return x + y, nil
		}
	}
	return addOrError(a[0], a[1])
}

// addOrError is expr's own `+`, its panic on mismatched types turned into an
// error.
func addOrError(x, y any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return runtime.Add(x, y), nil
}

func boundedRepeat(a ...any) (any, error) {
	s, n := a[0].(string), runtime.ToInt(a[1])
	if n < 0 {
		return nil, fmt.Errorf("invalid argument for repeat (expected positive integer, got %d)", n)
	}
	if len(s) > 0 && n > MaxValueBytes/len(s)+1 {
		return nil, checkLen("repeat", MaxValueBytes+1)
	}
	if err := checkLen("repeat", len(s)*n); err != nil {
		return nil, err
	}
	return strings.Repeat(s, n), nil
}

func boundedReplace(a ...any) (any, error) {
	s, old, repl := a[0].(string), a[1].(string), a[2].(string)
	n := -1
	if len(a) == 4 {
		n = runtime.ToInt(a[3])
	}
	count := strings.Count(s, old)
	if n >= 0 && n < count {
		count = n
	}
	if err := checkLen("replace", len(s)+count*(len(repl)-len(old))+len(repl)); err != nil {
		return nil, err
	}
	return strings.Replace(s, old, repl, n), nil
}

func boundedJoin(a ...any) (any, error) {
	glue := ""
	if len(a) == 2 {
		glue = a[1].(string)
	}
	list := reflect.ValueOf(a[0])
	if list.Kind() != reflect.Slice && list.Kind() != reflect.Array {
		return nil, fmt.Errorf("join: %T is not a list", a[0])
	}
	parts := make([]string, list.Len())
	total := 0
	for i := range parts {
		s, ok := list.Index(i).Interface().(string)
		if !ok {
			return nil, fmt.Errorf("join: element %d is %T, not a string", i, list.Index(i).Interface())
		}
		total += len(s) + len(glue)
		if err := checkLen("join", total); err != nil {
			return nil, err
		}
		parts[i] = s
	}
	return strings.Join(parts, glue), nil
}

func boundedJSON(a ...any) (any, error) {
	if n := valueSize(a[0], MaxValueBytes); n > MaxValueBytes {
		return nil, checkLen("toJSON", n)
	}
	b, err := json.MarshalIndent(a[0], "", "  ")
	if err != nil {
		return nil, fmt.Errorf("toJSON: %w", err)
	}
	if err := checkLen("toJSON", len(b)); err != nil {
		return nil, err
	}
	return string(b), nil
}

func checkLen(op string, n int) error {
	if n > MaxValueBytes || n < 0 {
		return fmt.Errorf("%s would build a value larger than the rule limit of %d bytes", op, MaxValueBytes)
	}
	return nil
}

// valueSize estimates the bytes of v once printed or encoded, stopping as
// soon as it passes limit (so a list holding the same long string a million
// times costs little to measure).
func valueSize(v any, limit int) int {
	total := 0
	var walk func(r reflect.Value, depth int)
	walk = func(r reflect.Value, depth int) {
		if total > limit || depth > 64 {
			total = limit + 1
			return
		}
		switch r.Kind() {
		case reflect.Invalid:
			total += 4
		case reflect.String:
			total += r.Len() + 2
		case reflect.Interface, reflect.Pointer:
			if !r.IsNil() {
				walk(r.Elem(), depth+1)
			}
		case reflect.Slice, reflect.Array:
			total += 2
			for i := 0; i < r.Len() && total <= limit; i++ {
				total++
				walk(r.Index(i), depth+1)
			}
		case reflect.Map:
			total += 2
			it := r.MapRange()
			for it.Next() && total <= limit {
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Struct:
			for i := 0; i < r.NumField() && total <= limit; i++ {
				if r.Type().Field(i).IsExported() {
					walk(r.Field(i), depth+1)
				}
			}
		default:
			total += 8
		}
	}
	walk(reflect.ValueOf(v), 0)
	return total
}
