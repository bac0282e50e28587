package schema

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/world"
)

// RuleError is one expr rule that does not compile or names something the
// spec does not declare. Path is the spec path of the expression
// (hooks.pre[1].when, tools.pick_up.check); Line and Col are 1-based inside
// the expression text, 0 when unknown. The loader turns them into file
// positions.
type RuleError struct {
	Path    string
	Line    int
	Col     int
	Message string
}

func (e RuleError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s (%d:%d): %s", e.Path, e.Line, e.Col, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Message)
}

// CompileRules compiles every expr rule of s once: hook when/rule/rewrite/clamp
// expressions against CallEnv, tool checks against CheckEnv. It returns every
// problem it finds, not only the first; Rules is nil when there are errors.
//
// Tool names in rules are checked against what the toolsets' tools lists
// say; use CompileRulesWith to also know what each toolset kind provides.
func CompileRules(s *Spec) (*Rules, []RuleError) {
	return compileRules(s, true, StaticToolIndex(s, nil), true)
}

// CompileRulesWith is CompileRules knowing the build's components, so the
// tools a toolset kind provides (builtin) are known too.
func CompileRulesWith(s *Spec, c *Descriptors) (*Rules, []RuleError) {
	return compileRules(s, true, StaticToolIndex(s, c), true)
}

// compileRules compiles every rule; lintRefs also checks the tags and tool
// names rules mention against the spec's tools (off when the tools section is
// itself broken, so its errors do not cascade into the hooks). Without
// bodyKnown (a broken embodiment) any sector or limit name is accepted.
func compileRules(s *Spec, lintRefs bool, tools ToolIndex, bodyKnown bool) (*Rules, []RuleError) {
	names := ruleNames(s)
	names.Open = !bodyKnown
	c := &ruleCompiler{spec: s, tags: map[string]bool{}, lintRefs: lintRefs, tools: tools, names: names}
	for _, t := range s.Tools {
		for _, tag := range t.Tags {
			c.tags[tag] = true
		}
	}
	r := &Rules{
		Pre:        make([]PreRules, len(s.Hooks.Pre)),
		Post:       make([]PostRules, len(s.Hooks.Post)),
		Checks:     map[string]*vm.Program{},
		VerifyArgs: map[string]map[string]*vm.Program{},
		Effects:    map[string][]CompiledEffect{},
	}
	for i, h := range s.Hooks.Pre {
		r.Pre[i] = c.preHook(fmt.Sprintf("hooks.pre[%d]", i), h)
	}
	for i, h := range s.Hooks.Post {
		r.Post[i].When = c.compile(fmt.Sprintf("hooks.post[%d].when", i), h.When, CallEnv{}, expr.AsBool())
	}
	for _, name := range sortedKeys(s.Tools) {
		if src := s.Tools[name].Check; src != "" {
			r.Checks[name] = c.compile("tools."+name+".check", src, CheckEnv{}, expr.AsBool())
		}
		if v := s.Tools[name].Verify; v != nil {
			args := make(map[string]*vm.Program, len(v.Args))
			for _, k := range sortedKeys(v.Args) {
				path := "tools." + name + ".verify.args." + k
				if v.Args[k] == "" {
					c.fail(path, 0, 0, "empty expression")
					continue
				}
				args[k] = c.compile(path, v.Args[k], CheckEnv{})
			}
			r.VerifyArgs[name] = args
		}
	}
	for _, name := range sortedKeys(s.Tools) {
		if effs := s.Tools[name].Effects; len(effs) > 0 {
			r.Effects[name] = c.effects("tools."+name+".effects", effs)
		}
	}
	c.sceneFrame()
	c.readingNames()
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return r, nil
}

type ruleCompiler struct {
	spec     *Spec
	tags     map[string]bool
	lintRefs bool
	tools    ToolIndex
	names    rules.Names
	errs     []RuleError
}

func (c *ruleCompiler) fail(path string, line, col int, format string, a ...any) {
	c.errs = append(c.errs, RuleError{Path: path, Line: line, Col: col, Message: fmt.Sprintf(format, a...)})
}

func (c *ruleCompiler) preHook(path string, h PreHook) PreRules {
	var pr PreRules
	pr.When = c.compile(path+".when", h.When, CallEnv{}, expr.AsBool())
	pr.Rule = c.compile(path+".rule", h.Rule, CallEnv{}, expr.AsBool())
	// What an action needs in its hook (a clamp's bounds, a rewrite's
	// values) is checked by the action's own Validate; its expressions are
	// compiled here, with the rest.
	progs := []*vm.Program{pr.When, pr.Rule}
	for _, e := range h.hookExprs() {
		var opts []expr.Option
		if e.Number {
			// AsFloat64 rejects a bound of a known non-numeric type at load
			// time; a bound of unknown type (an argument) is checked when it
			// runs.
			opts = append(opts, expr.AsFloat64())
		}
		p := c.compile(path+"."+e.Field, e.Src, CallEnv{}, opts...)
		if p == nil && e.Src == "" && e.NonEmpty {
			c.fail(path+"."+e.Field, 0, 0, "empty expression")
		}
		if pr.Exprs == nil {
			pr.Exprs = map[string]*vm.Program{}
		}
		pr.Exprs[e.Field] = p
		progs = append(progs, p)
	}
	for _, p := range progs {
		pr.ReadsClearance = pr.ReadsClearance || rules.ReadsIdent(p, "clearance")
		pr.ReadsReadings = pr.ReadsReadings || rules.ReadsIdent(p, "readings")
	}
	return pr
}

// compile compiles one expression; an empty source gives a nil program (the
// caller reads nil as "true" for when/rule and as "no bound" for clamps).
func (c *ruleCompiler) compile(path, src string, env any, opts ...expr.Option) *vm.Program {
	run, _ := c.compileTyped(path, src, env, opts...)
	return run
}

// compileTyped is compile that also gives the static type of the
// expression as written (see rules.Names.Compile).
func (c *ruleCompiler) compileTyped(path, src string, env any, opts ...expr.Option) (*vm.Program, reflect.Type) {
	p, t, err := c.names.Compile(src, ruleEnv(env), opts...)
	if err != nil {
		c.fail(path, err.Line, err.Col, "%s", err.Message)
		return nil, nil
	}
	if p != nil {
		c.lint(path, src)
	}
	return p, t
}

// ruleEnv is the environment a spec's rule compiles against, with the names
// of its observed data: hooks read the observation and the arguments, checks
// the observations before and after the call and the arguments.
func ruleEnv(env any) rules.Env {
	switch env.(type) {
	case CallEnv:
		return rules.Env{Value: env, Observed: []string{"observation", "args"}}
	case CheckEnv:
		return rules.Env{Value: env, Observed: []string{"before", "after", "args"}}
	}
	return rules.Env{Value: env}
}

// ruleNames are the names the spec's body declares for rules to read: its
// clearance sectors, its limits and its safety readings.
func ruleNames(s *Spec) rules.Names {
	n := rules.Names{
		Sectors: SectorNames(s.Embodiment.Sectors()),
		Extra:   sortedKeys(s.Embodiment.Limits.Extra),
		Limits:  s.Embodiment.Limits.LimitNames(),
		Types: rules.Types{
			Clearance: reflect.TypeFor[ClearanceEnv](),
			Sectored:  reflect.TypeFor[world.Clearance](),
			Limits:    reflect.TypeFor[Limits](),
			Describe: map[reflect.Type]string{
				reflect.TypeFor[ClearanceEnv]():      "clearance",
				reflect.TypeFor[rules.ReadingsEnv](): "readings",
				reflect.TypeFor[Limits]():            "limits",
				reflect.TypeFor[ToolInfo]():          "tool",
				reflect.TypeFor[ResultEnv]():         "result",
				reflect.TypeFor[world.Observation](): "an observation",
			},
		},
	}
	if r := s.Safety.Readings; r != nil {
		n.Readings = r.Values
	}
	return n
}

// lint reports names a rule uses that the spec does not declare: a tag no
// tool contract carries, a tool name with no contract.
func (c *ruleCompiler) lint(path, src string) {
	if !c.lintRefs {
		return
	}
	for _, r := range rules.Refs(src) {
		switch {
		case r.Kind == rules.RefTag && !c.tags[r.Name]:
			c.fail(path, r.Line, r.Col, "unknown tool tag %q (no tool contract in tools declares it)", r.Name)
		case r.Kind == rules.RefTool:
			c.checkToolName(path, r)
		}
	}
}

func (c *ruleCompiler) checkToolName(path string, r rules.Ref) {
	if !c.certainlyUnknownTool(r.Name) {
		return
	}
	known := append(c.tools.Names(), sortedKeys(c.spec.Tools)...)
	c.fail(path, r.Line, r.Col, "tool %q: no tool contract names it and no toolset provides it%s", r.Name, suggest(r.Name, known))
}

// certainlyUnknownTool reports whether name is certainly not a tool of the
// spec: no contract names it and no toolset provides or may provide it (an
// mcp toolset with no tools list could provide anything).
func (c *ruleCompiler) certainlyUnknownTool(name string) bool {
	if _, ok := c.spec.Tools[name]; ok || len(c.spec.Tools) == 0 && len(c.spec.Toolsets) == 0 {
		return false
	}
	_, _, r := c.tools.Resolve(name)
	return r == Unknown
}

type visitFunc func(ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(*n) }

// readingNames reports declared reading names a rule could not read (they
// are the readings env's own fields).
func (c *ruleCompiler) readingNames() {
	if c.spec.Safety.Readings == nil {
		return
	}
	for _, name := range sortedKeys(c.spec.Safety.Readings.Values) {
		if reserved, fields := rules.ReservedReading(name); reserved {
			c.fail("safety.readings.values."+name, 0, 0, "%q is a name rules use for readings' own fields (%s): name the reading otherwise",
				name, strings.Join(fields, ", "))
		}
	}
}
