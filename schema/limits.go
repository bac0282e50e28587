package schema

import (
	"time"

	"cuelang.org/go/cue/ast"
)

// Bounds on a spec's lists and mappings, checked on the parsed file before
// CUE unifies it. Unifying grows quadratically with the items of one list or
// the fields of one struct (measured with `thea validate`: a 10,000-item list
// 1.4 s, 40,000 items 13.6 s; a tools mapping of 5,000 entries 0.56 s,
// 100,000 entries 108 s), so a spec that is one long list could stall
// `validate` and `run` for minutes. Real specs are far smaller. Lists that a
// CUE comprehension generates are not seen here: the bounds on evaluation
// below stop them.
const (
	// MaxListItems bounds the elements of one list.
	MaxListItems = 2000
	// MaxStructFields bounds the fields of one mapping.
	MaxStructFields = 2000
	// MaxSpecItems bounds the list elements and fields of a whole file.
	MaxSpecItems = 20000
)

// Bounds on evaluating a spec (LoadBounded). CUE's evaluator cannot be
// cancelled and has no memory limit: an 800-byte file that doubles a string
// 26 times, or a comprehension over list.Range(0, 1e9, 1), runs until the
// machine is out of memory. So the spec is evaluated first in a child
// process that is stopped at these bounds. Measured (BENCHMARKS.md): the
// evaluator of the largest example (examples/ros-arm), start-up included,
// uses 0.2-0.27 s of CPU and 34 MiB RSS, so neither bound is near an
// honest spec.
const (
	// MaxEvalHeap bounds the Go heap and stacks of the evaluation.
	MaxEvalHeap = 512 << 20
	// MaxEvalTime bounds the evaluation's CPU time: work, so a loaded
	// machine does not fail an honest spec.
	MaxEvalTime = 10 * time.Second
	// MaxEvalWall is the parent's deadline on the evaluator's wall-clock
	// time, a backstop behind MaxEvalTime: generous, because on a loaded
	// machine the evaluator gets a small share of a core.
	MaxEvalWall = 2 * time.Minute
	// maxEvalStack bounds one goroutine's stack in the evaluator, so deep
	// recursion crashes it early rather than growing to Go's 1 GiB default.
	maxEvalStack = 128 << 20
)

// checkSize reports a list or mapping beyond the bounds; false means the
// file is not unified.
func (l *loader) checkSize(f *ast.File, path string) bool {
	total, ok := len(f.Decls), true
	fail := func(n ast.Node, format string, a ...any) {
		pos := n.Pos()
		l.errorf(Pos{File: path, Line: pos.Line(), Col: pos.Column()}, "", format, a...)
		ok = false
	}
	ast.Walk(f, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.ListLit:
			total += len(x.Elts)
			if len(x.Elts) > MaxListItems {
				fail(x, "a list of %d items: at most %d items per list", len(x.Elts), MaxListItems)
			}
		case *ast.StructLit:
			total += len(x.Elts)
			if len(x.Elts) > MaxStructFields {
				fail(x, "a mapping of %d fields: at most %d fields per mapping", len(x.Elts), MaxStructFields)
			}
		}
		if ok && total > MaxSpecItems {
			fail(n, "more than %d list items and fields in one spec file", MaxSpecItems)
		}
		return ok
	}, nil)
	return ok
}
