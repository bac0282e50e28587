package schema

// TEMPORARY: a simple CompileRules until the policies helper's
// rules_compile.go lands; the integrator deletes this file then.

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// RuleError is one rule that does not compile: Path is the spec path of the
// expression, Line and Col the 1-based position inside it (0 when unknown).
type RuleError struct {
	Path    string
	Line    int
	Col     int
	Message string
}

var tagTest = regexp.MustCompile(`'([^']*)'\s+in\s+tool\.tags`)

// CompileRules compiles every expr rule of s against its typed environment.
func CompileRules(s *Spec) (*Rules, []RuleError) {
	var errs []RuleError
	tags := map[string]bool{}
	for _, c := range s.Tools {
		for _, t := range c.Tags {
			tags[t] = true
		}
	}
	compile := func(path, src string, env any, asBool bool) *vm.Program {
		if src == "" {
			return nil
		}
		opts := []expr.Option{expr.Env(env)}
		if asBool {
			opts = append(opts, expr.AsBool())
		}
		p, err := expr.Compile(src, opts...)
		if err != nil {
			errs = append(errs, ruleError(path, err))
			return nil
		}
		for _, m := range tagTest.FindAllStringSubmatchIndex(src, -1) {
			if tag := src[m[2]:m[3]]; !tags[tag] {
				errs = append(errs, RuleError{Path: path, Line: 1, Col: m[2], Message: fmt.Sprintf("no tool contract declares the tag %q", tag)})
			}
		}
		return p
	}
	r := &Rules{Checks: map[string]*vm.Program{}}
	for i, h := range s.Hooks.Pre {
		base := fmt.Sprintf("hooks.pre[%d]", i)
		pr := PreRules{
			When: compile(base+".when", h.When, CallEnv{}, true),
			Rule: compile(base+".rule", h.Rule, CallEnv{}, true),
		}
		srcs := h.When + h.Rule
		if len(h.Rewrite) > 0 {
			pr.Rewrite = map[string]*vm.Program{}
			for _, arg := range sortedKeys(h.Rewrite) {
				pr.Rewrite[arg] = compile(base+".rewrite."+arg, h.Rewrite[arg], CallEnv{}, false)
				srcs += h.Rewrite[arg]
			}
		}
		if h.Clamp != nil {
			pr.ClampMin = compile(base+".clamp.min", h.Clamp.Min, CallEnv{}, false)
			pr.ClampMax = compile(base+".clamp.max", h.Clamp.Max, CallEnv{}, false)
			srcs += h.Clamp.Min + h.Clamp.Max
		}
		pr.ReadsClearance = strings.Contains(srcs, "clearance")
		r.Pre = append(r.Pre, pr)
	}
	for i, h := range s.Hooks.Post {
		r.Post = append(r.Post, PostRules{When: compile(fmt.Sprintf("hooks.post[%d].when", i), h.When, CallEnv{}, true)})
	}
	for _, name := range sortedKeys(s.Tools) {
		if p := compile("tools."+name+".check", s.Tools[name].Check, CheckEnv{}, true); p != nil {
			r.Checks[name] = p
		}
	}
	return r, errs
}

// ruleError converts an expr compile error, keeping its position.
func ruleError(path string, err error) RuleError {
	var fe *file.Error
	if errors.As(err, &fe) {
		return RuleError{Path: path, Line: fe.Line, Col: fe.Column + 1, Message: fe.Message}
	}
	return RuleError{Path: path, Message: err.Error()}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
