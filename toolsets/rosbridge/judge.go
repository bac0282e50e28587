package rosbridge

import (
	"errors"
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
)

// A tool's success and reason exprs judge what the robot answered, the
// same way for a service (its response) and an action (its result and
// the goal's status): the transport's answer is not the task's.

// judgeDecl is what a tool declares to judge its answer.
type judgeDecl struct {
	success, reason string
	at              string // the declaring field's path ("tools.pick.action")
	// vars are what the exprs read: a service's response; an action's
	// result and status.
	vars []string
}

// compileJudge compiles a tool's success (a bool) and reason exprs.
func compileJudge(tp *toolPlan, d judgeDecl) error {
	var errs []error
	if d.success != "" {
		prog, err := compileVars(d.success, d.vars, d.at+".success", expr.AsBool())
		tp.success = prog
		errs = append(errs, err)
	}
	if d.reason != "" {
		prog, err := compileVars(d.reason, d.vars, d.at+".reason")
		tp.reason = prog
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// compileVars compiles src over the judge variables: status is a string,
// the others are JSON objects.
func compileVars(src string, vars []string, path string, opts ...expr.Option) (*vm.Program, error) {
	env := map[string]any{}
	for _, v := range vars {
		if v == "status" {
			env[v] = ""
		} else {
			env[v] = map[string]any{}
		}
	}
	all := append([]expr.Option{expr.Env(exprEnvVars(env))}, opts...)
	prog, err := expr.Compile(src, append(all, rules.ExprOptions()...)...)
	if err != nil {
		return nil, FieldError{Path: path, Msg: fmt.Sprintf("expr %q: %v", src, err)}
	}
	return prog, nil
}

// judge reads the declared success expr over vars for an answer the
// transport counted a success: false (or an error reading it) makes env
// a failure, its reason the reason expr's value (else fallback). Without a
// success expr env stands. noun names what was read ("response").
func (tp *toolPlan) judge(env runlog.Envelope, vars map[string]any, noun, fallback string) runlog.Envelope {
	if tp.success == nil {
		return env
	}
	ok, err := runVars(tp.success, vars)
	if err != nil {
		env.Success, env.Reason = false, fmt.Sprintf("%s: reading success from the %s failed: %v", tp.name, noun, err)
		return env
	}
	if ok == true {
		return env
	}
	env.Success, env.Reason = false, fmt.Sprintf("%s: %s", tp.name, tp.reasonOf(vars, fallback))
	return env
}

// reasonOf is the reason expr's value over vars, or fallback when none is
// declared or it gives nothing.
func (tp *toolPlan) reasonOf(vars map[string]any, fallback string) string {
	if tp.reason == nil {
		return fallback
	}
	r, err := runVars(tp.reason, vars)
	if err != nil {
		return fmt.Sprintf("%s (reading the reason failed: %v)", fallback, err)
	}
	if s := renderValue(r); r != nil && s != "" {
		return s
	}
	return fallback
}
