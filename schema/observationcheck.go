package schema

import (
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// CompileObservationCheck compiles src, a boolean expr over an observation
// outside any tool call (thea eval --success-at-reset), against CheckEnv as
// a tool's check is compiled, with the spec's names (limits, sectors,
// readings): it reads after (and before, the same observation) and
// limits. The error names the line and column.
func CompileObservationCheck(s *Spec, src string) (*vm.Program, error) {
	c := &ruleCompiler{spec: s, tags: map[string]bool{}, names: ruleNames(s)}
	p := c.compile("check", src, CheckEnv{}, expr.AsBool())
	if len(c.errs) > 0 {
		e := c.errs[0]
		return nil, fmt.Errorf("%q: line %d, column %d: %s", src, e.Line, e.Col, e.Message)
	}
	if p == nil {
		return nil, fmt.Errorf("%q: an empty check", src)
	}
	return p, nil
}
