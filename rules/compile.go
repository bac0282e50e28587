package rules

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Env is a typed environment rules compile against.
type Env struct {
	// Value is a zero value of the environment's Go type: a rule reading a
	// field it does not have, or of the wrong type, fails to compile.
	Value any
	// Observed are the names of its observed data (observation, args): each
	// read of them is compiled into a checked read, so a value a back-end
	// did not send fails the rule (missing.go).
	Observed []string
}

// Error is an expression that does not compile. Line and Col are 1-based
// inside the expression's text, 0 when unknown; the spec's loader turns them
// into file positions.
type Error struct {
	Line, Col int
	Message   string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("(%d:%d): %s", e.Line, e.Col, e.Message)
	}
	return e.Message
}

// Compile compiles src against env, checking and patching the body's names
// (see Names) and bounding it (bounds.go). It also gives the static type of
// the expression as written (the program reads observed data through checked
// reads, whose type may be any). An empty src compiles to no program.
func (b Names) Compile(src string, env Env, opts ...expr.Option) (*vm.Program, reflect.Type, *Error) {
	if src == "" {
		return nil, nil, nil
	}
	envType := reflect.TypeOf(env.Value)
	if msg, at := b.check(src, envType); msg != "" {
		line, col := offsetPos(src, at)
		return nil, nil, &Error{Line: line, Col: col, Message: msg}
	}
	opts = append([]expr.Option{expr.Env(env.Value), expr.Patch(b)}, opts...)
	p, err := expr.Compile(src, append(opts, ruleOptions()...)...)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			line, col := fe.Line, fe.Column+1
			if line == 0 {
				col = 0
			}
			return nil, nil, &Error{Line: line, Col: col, Message: friendly(fe.Message, envType)}
		}
		return nil, nil, &Error{Message: friendly(err.Error(), envType)}
	}
	run, cerr := checked(src, p, env, opts)
	if cerr != nil {
		return nil, nil, cerr
	}
	return run, p.Node().Type(), nil
}

// checked compiles again, with every read of observed data a checked one
// (see missing.go), a rule that reads any; the first compile keeps the
// type errors of the reads as written.
func checked(src string, p *vm.Program, env Env, opts []expr.Option) (*vm.Program, *Error) {
	roots := map[string]bool{}
	reads := false
	for _, r := range env.Observed {
		roots[r] = true
		reads = reads || ReadsIdent(p, r)
	}
	if !reads {
		return p, nil
	}
	q, err := expr.Compile(src, append(append(opts[:len(opts):len(opts)], missingOptions(roots)...), ruleOptions()...)...)
	if err != nil {
		return nil, &Error{Message: fmt.Sprintf("checking the reads of missing values: %v", err)}
	}
	return q, nil
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
