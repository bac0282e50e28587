package rosbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// plan is a toolset's config compiled once at load: every expr
// type-checked, every tool's input schema built.
type plan struct {
	cfg   Config
	tools map[string]*toolPlan
	state map[string]*vm.Program
	// readings are the safety readings' value exprs, by name.
	readings map[string]*vm.Program
	// held and detections are perception's exprs (perception.go).
	held       *vm.Program
	detections map[string]*vm.Program
}

// toolPlan is one declared tool, compiled.
type toolPlan struct {
	name string
	decl ToolDecl
	def  model.ToolDef
	// build makes the goal, request or message from args.
	build *vm.Program
	// duration (publish) is seconds from args; zero the closing message.
	duration *vm.Program
	zero     *vm.Program
	// success and reason (service) read the response.
	success, reason *vm.Program
}

// compile builds the plan; every problem is a FieldError.
func compile(cfg Config) (*plan, error) {
	p := &plan{cfg: cfg, tools: map[string]*toolPlan{}, state: map[string]*vm.Program{}}
	var errs []error
	fail := func(path, format string, args ...any) {
		errs = append(errs, FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	reserved := map[string]string{}
	if o := cfg.Observation; o != nil {
		reserved[o.Tool] = "observation.tool"
	}
	if c := cfg.Clearance; c != nil {
		if prev, ok := reserved[c.Tool]; ok {
			fail("clearance.tool", "%q is already %s", c.Tool, prev)
		}
		reserved[c.Tool] = "clearance.tool"
	}
	p.compileReadings(reserved, fail)
	for _, name := range slices.Sorted(maps.Keys(cfg.Tools)) {
		d := cfg.Tools[name]
		at := "tools." + name
		if prev, ok := reserved[name]; ok {
			fail(at, "the tool name %q is the toolset's %s", name, prev)
		}
		tp, err := compileTool(name, d, at)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.tools[name] = tp
	}
	if o := cfg.Observation; o != nil {
		for _, k := range slices.Sorted(maps.Keys(o.State)) {
			prog, err := compileExpr(o.State[k].Value, "msg", nil, "observation.state."+k+".value")
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p.state[k] = prog
		}
		for cam, t := range o.Cameras {
			if t.Type != "" && t.Type != typeCompressedImage && t.Type != typeImage {
				fail("observation.cameras."+cam+".type", "a camera is read from %s or %s", typeCompressedImage, typeImage)
			}
		}
		errs = append(errs, p.compilePerception(fail)...)
	}
	checkSubscribe(cfg, fail)
	return p, errors.Join(errs...)
}

func compileTool(name string, d ToolDecl, at string) (*toolPlan, error) {
	n := 0
	for _, set := range []bool{d.Action != nil, d.Service != nil, d.Publish != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, FieldError{Path: at, Msg: "a tool is exactly one of action, service or publish"}
	}
	tp := &toolPlan{name: name, decl: d}
	schema, err := inputSchema(d.Args)
	if err != nil {
		return nil, FieldError{Path: at + ".args", Msg: err.Error()}
	}
	tp.def = model.ToolDef{Name: name, Description: d.Description, InputSchema: schema}
	var errs []error
	add := func(prog *vm.Program, err error) *vm.Program {
		if err != nil {
			errs = append(errs, err)
		}
		return prog
	}
	switch {
	case d.Action != nil:
		tp.build = add(compileExpr(d.Action.Goal, "args", d.Args, at+".action.goal", expr.AsKind(reflect.Map)))
	case d.Service != nil:
		tp.build = add(compileExpr(d.Service.Request, "args", d.Args, at+".service.request", expr.AsKind(reflect.Map)))
		if d.Service.Success != "" {
			tp.success = add(compileExpr(d.Service.Success, "response", nil, at+".service.success", expr.AsBool()))
		}
		if d.Service.Reason != "" {
			tp.reason = add(compileExpr(d.Service.Reason, "response", nil, at+".service.reason"))
		}
	case d.Publish != nil:
		pd := d.Publish
		tp.build = add(compileExpr(pd.Message, "args", d.Args, at+".publish.message", expr.AsKind(reflect.Map)))
		tp.duration = add(compileExpr(pd.Duration, "args", d.Args, at+".publish.duration", expr.AsFloat64()))
		zero := pd.Zero
		if zero == "" {
			if pd.Type != typeTwist {
				errs = append(errs, FieldError{Path: at + ".publish.zero", Msg: "a publish of a type other than " + typeTwist + " needs its zero message (zero: an expr)"})
				break
			}
			zero = "{linear: {x: 0.0, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}"
		}
		tp.zero = add(compileExpr(zero, "args", d.Args, at+".publish.zero", expr.AsKind(reflect.Map)))
	}
	return tp, errors.Join(errs...)
}

// compileExpr compiles src with one variable (args, response or msg), a
// map; with args declared, every args.<name> it reads must be one of them
// (expr does not check map keys).
func compileExpr(src, variable string, args map[string]ArgDecl, path string, opts ...expr.Option) (*vm.Program, error) {
	env := exprEnv(variable, map[string]any{})
	opts = append(append([]expr.Option{expr.Env(env)}, opts...), schema.ExprOptions()...)
	prog, err := expr.Compile(src, opts...)
	if err != nil {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q: %v", src, err)}
	}
	if variable != "args" {
		return prog, nil
	}
	var unknown []string
	node := prog.Node()
	ast.Walk(&node, visitor(func(n ast.Node) {
		m, ok := n.(*ast.MemberNode)
		if !ok {
			return
		}
		id, ok := m.Node.(*ast.IdentifierNode)
		if !ok || id.Value != "args" {
			return
		}
		if key, ok := m.Property.(*ast.StringNode); ok {
			if _, declared := args[key.Value]; !declared {
				unknown = append(unknown, key.Value)
			}
		}
	}))
	if len(unknown) > 0 {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q reads args.%s, which the tool does not declare (args: %v)", src, unknown[0], slices.Sorted(maps.Keys(args)))}
	}
	return prog, nil
}

type visitor func(ast.Node)

func (v visitor) Visit(n *ast.Node) { v(*n) }

// inputSchema is the JSON Schema of a tool's arguments.
func inputSchema(args map[string]ArgDecl) (json.RawMessage, error) {
	props := map[string]any{}
	required := []string{}
	for name, a := range args {
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
		props[name] = p
		if !a.Optional {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	return json.Marshal(map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

// run evaluates a compiled expr with its one variable, within the bounds
// every expr Thea evaluates shares (schema.RunRule): a string, list or
// message past them is refused before it is built, and the error names the
// expression so the model (or the operator) can read why.
func run(prog *vm.Program, variable string, v any) (any, error) {
	out, err := schema.RunRule(nil, prog, exprEnv(variable, v))
	if err != nil {
		return nil, fmt.Errorf("expr %s: %w", quoteExpr(prog.Source().String()), err)
	}
	return out, nil
}

// quoteExpr is an expression's text for an error, cut to a readable length.
func quoteExpr(src string) string {
	const max = 400
	if len(src) > max {
		src = src[:max] + "…"
	}
	return strconv.Quote(src)
}

// exprEnv is an expr's environment: its variable and the trigonometry a
// message needs (a quaternion from a heading: sin(yaw/2), cos(yaw/2)).
func exprEnv(variable string, v any) map[string]any {
	return map[string]any{variable: v, "sin": math.Sin, "cos": math.Cos, "atan2": math.Atan2, "pi": math.Pi}
}
