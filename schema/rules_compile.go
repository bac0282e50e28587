package schema

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
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
	names := newBodyNames(s)
	names.open = !bodyKnown
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
	checkReadingNames(s, func(path, format string, a ...any) { c.fail(path, 0, 0, format, a...) })
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
	names    bodyNames
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
		pr.ReadsClearance = pr.ReadsClearance || ReadsIdent(p, "clearance")
		pr.ReadsReadings = pr.ReadsReadings || ReadsIdent(p, "readings")
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
// expression as written (the program it runs reads observed data through
// checked reads, whose type may be any).
func (c *ruleCompiler) compileTyped(path, src string, env any, opts ...expr.Option) (*vm.Program, reflect.Type) {
	if src == "" {
		return nil, nil
	}
	envType := reflect.TypeOf(env)
	if msg, at := c.names.check(src, envType); msg != "" {
		line, col := offsetPos(src, at)
		c.fail(path, line, col, "%s", msg)
		return nil, nil
	}
	opts = append([]expr.Option{expr.Env(env), expr.Patch(c.names)}, opts...)
	p, err := expr.Compile(src, append(opts, ruleOptions()...)...)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			line, col := fe.Line, fe.Column+1
			if line == 0 {
				col = 0
			}
			c.fail(path, line, col, "%s", friendly(fe.Message, envType))
		} else {
			c.fail(path, 0, 0, "%s", friendly(err.Error(), envType))
		}
		return nil, nil
	}
	c.lint(path, src)
	return c.checked(path, src, p, envType, opts), p.Node().Type()
}

// checked compiles again, with every read of observed data a checked one
// (see rules_missing.go), a rule that reads any; the first compile keeps the
// type errors of the reads as written.
func (c *ruleCompiler) checked(path, src string, p *vm.Program, envType reflect.Type, opts []expr.Option) *vm.Program {
	roots := observedRoots(envType)
	reads := false
	for r := range roots {
		reads = reads || ReadsIdent(p, r)
	}
	if !reads {
		return p
	}
	q, err := expr.Compile(src, append(append(opts[:len(opts):len(opts)], missingOptions(roots)...), ruleOptions()...)...)
	if err != nil {
		c.fail(path, 0, 0, "checking the reads of missing values: %v", err)
		return nil
	}
	return q
}

// lint reports names a rule uses that the spec does not declare: a tag no
// tool contract carries, a tool name with no contract. It reads the parsed
// (not optimised) tree so `tool.name in ['a', 'b']` keeps its literals.
func (c *ruleCompiler) lint(path, src string) {
	if !c.lintRefs {
		return
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return // compile already succeeded; nothing more to learn here
	}
	ast.Walk(&tree.Node, visitFunc(func(n ast.Node) {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return
		}
		switch {
		case b.Operator == "in" && isToolField(b.Right, "tags"):
			if s, ok := b.Left.(*ast.StringNode); ok && !c.tags[s.Value] {
				line, col := offsetPos(src, s.Location().From)
				c.fail(path, line, col, "unknown tool tag %q (no tool contract in tools declares it)", s.Value)
			}
		case b.Operator == "in" && isToolField(b.Left, "name"):
			if arr, ok := b.Right.(*ast.ArrayNode); ok {
				for _, e := range arr.Nodes {
					c.checkToolName(path, src, e)
				}
			}
		case b.Operator == "==" || b.Operator == "!=":
			if isToolField(b.Left, "name") {
				c.checkToolName(path, src, b.Right)
			} else if isToolField(b.Right, "name") {
				c.checkToolName(path, src, b.Left)
			}
		}
	}))
}

func (c *ruleCompiler) checkToolName(path, src string, n ast.Node) {
	s, ok := n.(*ast.StringNode)
	if !ok || !c.certainlyUnknownTool(s.Value) {
		return
	}
	line, col := offsetPos(src, s.Location().From)
	known := append(c.tools.Names(), sortedKeys(c.spec.Tools)...)
	c.fail(path, line, col, "tool %q: no tool contract names it and no toolset provides it%s", s.Value, suggest(s.Value, known))
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

// isToolField reports whether n is `tool.<field>` (or `tool["field"]`).
func isToolField(n ast.Node, field string) bool {
	m, ok := n.(*ast.MemberNode)
	if !ok {
		return false
	}
	id, ok := m.Node.(*ast.IdentifierNode)
	if !ok || id.Value != "tool" {
		return false
	}
	p, ok := m.Property.(*ast.StringNode)
	return ok && p.Value == field
}

// ReadsIdent reports whether a compiled program reads the top-level
// identifier name (e.g. `clearance`); a nil program reads nothing.
func ReadsIdent(p *vm.Program, name string) bool {
	if p == nil {
		return false
	}
	found := false
	node := p.Node()
	ast.Walk(&node, visitFunc(func(n ast.Node) {
		if id, ok := n.(*ast.IdentifierNode); ok && id.Value == name {
			found = true
		}
	}))
	return found
}

// offsetPos turns a rune offset of src into a 1-based line and column.
func offsetPos(src string, from int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i == from {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	return line, col
}

type visitFunc func(ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(*n) }
