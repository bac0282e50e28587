package rosbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
)

// plan is a toolset's config compiled once at load: every expr
// type-checked, every tool's input schema built.
type plan struct {
	cfg Config
	// url is the section's rosbridge URL.
	url   string
	tools map[string]*toolPlan
	state map[string]*vm.Program
	// readings are the safety readings' value exprs, by name.
	readings map[string]*vm.Program
	// stop is the declared stop path (stop.go); nil when none.
	stop *stopPlan
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
	// success and reason judge the answer: a service's response, an
	// action's result and status (judge.go).
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
			at := "observation.state." + k + ".value"
			prog, err := compileExpr(o.State[k].Value, "msg", nil, at)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if why := checkStateValue(prog); why != "" {
				fail(at, "expr %q cannot be encoded as a state value: %s", o.State[k].Value, why)
				continue
			}
			p.state[k] = prog
		}
		for cam, t := range o.Cameras {
			if t.Type != "" && t.Type != typeCompressedImage && t.Type != perception.TypeImage {
				fail("observation.cameras."+cam+".type", "a camera is read from %s or %s", typeCompressedImage, perception.TypeImage)
			}
		}
		errs = append(errs, p.compilePerception(fail)...)
	}
	checkSubscribe(cfg, fail)
	if name := cfg.StoppedReading; name != "" {
		if cfg.Readings == nil || cfg.Readings.Sources[name].Topic == "" {
			fail("stopped_reading", "%q is not a reading: name one of readings.sources (a reading that is true while the robot is still)", name)
		}
	}
	// The schema's defaults fill these; a config built in Go without them
	// is refused, never given a second default.
	for _, d := range []struct{ path, v string }{
		{"cancel_timeout", cfg.CancelTimeout}, {"reconnect.initial", cfg.Reconnect.Initial}, {"reconnect.max", cfg.Reconnect.Max},
	} {
		if duration(d.v) <= 0 {
			fail(d.path, "%q is not a positive duration (schema.Load fills the schema's default)", d.v)
		}
	}
	stop, err := compileStop(cfg)
	if err != nil {
		errs = append(errs, err)
	}
	p.stop = stop
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
	if errs := checkArgDecls(d.Args, at+".args"); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
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
		add(nil, compileJudge(tp, judgeDecl{success: d.Action.Success, reason: d.Action.Reason, at: at + ".action", vars: []string{"result", "status"}}))
	case d.Service != nil:
		tp.build = add(compileExpr(d.Service.Request, "args", d.Args, at+".service.request", expr.AsKind(reflect.Map)))
		add(nil, compileJudge(tp, judgeDecl{success: d.Service.Success, reason: d.Service.Reason, at: at + ".service", vars: []string{"response"}}))
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
	opts = append(append([]expr.Option{expr.Env(env)}, opts...), rules.ExprOptions()...)
	prog, err := expr.Compile(src, opts...)
	if err != nil {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q: %v", src, err)}
	}
	if variable != "args" {
		return prog, nil
	}
	var unknown []string
	var problem string
	node := prog.Node()
	ast.Walk(&node, visitor(func(n ast.Node) {
		chain := memberChain(n, "args")
		if len(chain) == 0 {
			return
		}
		if _, declared := args[chain[0]]; !declared && chain[0] != "[]" {
			unknown = append(unknown, chain[0])
		} else if why := argChainProblem(chain, args); why != "" && problem == "" {
			problem = why
		}
	}))
	if len(unknown) > 0 {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q reads args.%s, which the tool does not declare (args: %v)", src, unknown[0], slices.Sorted(maps.Keys(args)))}
	}
	if problem != "" {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q reads %s", src, problem)}
	}
	// Type-checked against the declared arguments too; the program run is
	// the one compiled over a map (what the call's JSON decodes to).
	typed := exprEnv(variable, reflect.New(argsType(args)).Elem().Interface())
	if _, err := expr.Compile(src, append([]expr.Option{expr.Env(typed)}, opts[1:]...)...); err != nil {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q does not fit the declared arguments: %s", src, readableTypes(err.Error()))}
	}
	return prog, nil
}

type visitor func(ast.Node)

func (v visitor) Visit(n *ast.Node) { v(*n) }

// inputSchema is the JSON Schema of a tool's arguments (args.go).
func inputSchema(args map[string]ArgDecl) (json.RawMessage, error) {
	props, required := objectSchema(args)
	return json.Marshal(map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

// run evaluates a compiled expr with its one variable, within the bounds
// every expr Thea evaluates shares (rules.Run): a string, list or
// message past them is refused before it is built, and the error names the
// expression so the model (or the operator) can read why.
func run(prog *vm.Program, variable string, v any) (any, error) {
	return runVars(prog, map[string]any{variable: v})
}

// runVars is run with several variables (an action's result and status).
func runVars(prog *vm.Program, vars map[string]any) (any, error) {
	out, err := rules.Run(nil, prog, exprEnvVars(vars))
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
	return exprEnvVars(map[string]any{variable: v})
}

// exprEnvVars is exprEnv with several variables.
func exprEnvVars(vars map[string]any) map[string]any {
	env := map[string]any{"sin": math.Sin, "cos": math.Cos, "atan2": math.Atan2, "pi": math.Pi}
	maps.Copy(env, vars)
	return env
}
